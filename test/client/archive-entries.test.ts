import { describe, expect, it } from 'vitest';
import { zipSync } from 'fflate';
import { readArchive } from '../../src/client/archive-entries.js';
import { isSignrunError } from '../../src/errors/signrun-error.js';

// The archive reader (issue 24 item 2): what a ZIP must be before any of its
// files reaches the output folder. fflate alone would hand back a file cut
// to the size its directory states, with no checksum looked at.

const pdf = (text: string) => Buffer.from(`%PDF-1.7\n% ${text}\n${'x'.repeat(2000)}\n%%EOF\n`);

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (error) {
    return isSignrunError(error) ? error.code : `not coded: ${String(error)}`;
  }
  return undefined;
}

/** The central directory entry of the file named `name` (APPNOTE 4.3.12). */
function centralEntry(zip: Buffer, name: string): number {
  let at = zip.readUInt32LE(zip.length - 22 + 16);
  for (;;) {
    const nameLength = zip.readUInt16LE(at + 28);
    if (zip.toString('utf8', at + 46, at + 46 + nameLength) === name) return at;
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
}

describe('readArchive', () => {
  it('gives every file, stored or deflated, in the order of the archive, folders skipped', () => {
    const zip = zipSync({
      'offer.pdf': [pdf('offer'), { level: 0 }],
      'docs/': new Uint8Array(0),
      'annex[1].pdf': [pdf('annex'), { level: 9 }],
      'Summary.pdf': pdf('certificate'),
    });
    const entries = readArchive(zip, 'test');
    expect(entries.map((e) => e.name)).toEqual(['offer.pdf', 'annex[1].pdf', 'Summary.pdf']);
    expect(Buffer.from(entries[1]!.bytes).equals(pdf('annex'))).toBe(true);
  });

  it('refuses a file that does not match its checksum, or that is longer than its entry says (SR_DOWNLOAD_DAMAGED)', () => {
    const zip = Buffer.from(zipSync({ 'a.pdf': [pdf('a'), { level: 0 }], 'b.pdf': pdf('b') }));
    const flipped = Buffer.from(zip);
    flipped[60] = flipped[60]! ^ 0xff; // inside a.pdf's stored bytes
    expect(codeOf(() => readArchive(flipped, 'test'))).toBe('SR_DOWNLOAD_DAMAGED');
    // b.pdf says it unpacks to 100 bytes: fflate would cut it there and say nothing.
    const lying = Buffer.from(zip);
    lying.writeUInt32LE(100, centralEntry(lying, 'b.pdf') + 24);
    expect(codeOf(() => readArchive(lying, 'test'))).toBe('SR_DOWNLOAD_DAMAGED');
    expect(codeOf(() => readArchive(Buffer.from('PK\x03\x04 not a zip at all'), 'test'))).toBe('SR_DOWNLOAD_DAMAGED');
  });

  it('refuses an archive that would unpack past its budget before inflating anything (SR_DOWNLOAD_TOO_LARGE)', () => {
    const bomb = zipSync({ 'a.pdf': new Uint8Array(4 * 1024 * 1024).fill(0x25) }, { level: 9 });
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(codeOf(() => readArchive(bomb, 'test', { unpackedBytes: 1024 * 1024 }))).toBe('SR_DOWNLOAD_TOO_LARGE');
    expect(codeOf(() => readArchive(zipSync({ 'a.pdf': pdf('a'), 'b.pdf': pdf('b') }), 'test', { entries: 1 }))).toBe(
      'SR_DOWNLOAD_DAMAGED',
    );
  });

  it('refuses a file that is not a PDF (SR_DOWNLOAD_NOT_DOCUMENT)', () => {
    const zip = zipSync({ 'a.pdf': pdf('a'), 'page.html': Buffer.from('<html>login</html>') });
    expect(codeOf(() => readArchive(zip, 'test'))).toBe('SR_DOWNLOAD_NOT_DOCUMENT');
  });
});
