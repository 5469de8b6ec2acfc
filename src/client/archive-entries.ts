import { crc32 } from 'node:zlib';
import { inflateSync } from 'fflate';
import { SignrunError } from '../errors/signrun-error.js';
import { downloadTooLarge, maxDownloadBytes } from './download-check.js';

/** One file of a ZIP archive: its name as the archive gives it, and its bytes. */
export interface ArchiveEntry {
  name: string;
  bytes: Uint8Array;
}

/** How much an archive may unpack to. */
export interface ArchiveBudget {
  /** Most bytes all its files together (default 128 MiB, as any download). */
  unpackedBytes: number;
  /** Most files (default 1,000: DocuSign's envelopes hold far fewer documents). */
  entries: number;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/**
 * The files of an envelope's archive (`documents/archive`), read whole and
 * checked before anything is written: the ZIP's central directory
 * (APPNOTE.TXT 4.3.12–16) says what is in it; the sizes it states must fit
 * the budget before anything is inflated (a small ZIP can unpack to
 * gigabytes); each file is inflated (fflate) into exactly its stated size
 * and must match its CRC-32, which catches a file that lies about its size
 * as well as damage (fflate alone neither checks a CRC nor refuses a file
 * longer than stated: it cuts it). Every file must be a PDF (`%PDF-` in its
 * first 1,024 bytes), as the archive holds "all of the PDF documents and
 * the Certificate of Completion". Folders are skipped; zip64, encryption and
 * methods other than stored and deflated are refused (SR_DOWNLOAD_DAMAGED).
 */
export function readArchive(zip: Uint8Array, what: string, budget: Partial<ArchiveBudget> = {}): ArchiveEntry[] {
  const unpackedBytes = budget.unpackedBytes ?? maxDownloadBytes;
  const maxEntries = budget.entries ?? 1000;
  const buf = Buffer.from(zip.buffer, zip.byteOffset, zip.byteLength);
  const damaged = (why: string) =>
    new SignrunError('SR_DOWNLOAD_DAMAGED', `${what} is not a readable ZIP archive (${why}): nothing was written`, {
      details: { why },
    });
  // The end of central directory record: 22 bytes, then a comment of at most 65,535 (4.3.16).
  let eocd = -1;
  for (let at = buf.length - 22; at >= Math.max(0, buf.length - 22 - 0xffff); at--) {
    if (buf.readUInt32LE(at) === EOCD) {
      eocd = at;
      break;
    }
  }
  if (eocd < 0) throw damaged('no end of central directory');
  const count = buf.readUInt16LE(eocd + 10);
  let at = buf.readUInt32LE(eocd + 16);
  if (count === 0xffff || at === 0xffffffff) throw damaged('zip64 is not read');
  if (count > maxEntries) throw damaged(`${count} files, more than ${maxEntries}`);
  const listed: Array<{ name: string; method: number; crc: number; compressed: number; size: number; local: number }> =
    [];
  let total = 0;
  for (let i = 0; i < count; i++) {
    if (at + 46 > buf.length || buf.readUInt32LE(at) !== CENTRAL) throw damaged('a broken central directory');
    const flags = buf.readUInt16LE(at + 8);
    const nameLength = buf.readUInt16LE(at + 28);
    // Bit 11: the name is UTF-8; otherwise IBM code page 437, read as latin1 (its ASCII part is the same).
    const name = buf.toString(flags & 0x800 ? 'utf8' : 'latin1', at + 46, at + 46 + nameLength);
    const entry = {
      name,
      method: buf.readUInt16LE(at + 10),
      crc: buf.readUInt32LE(at + 16),
      compressed: buf.readUInt32LE(at + 20),
      size: buf.readUInt32LE(at + 24),
      local: buf.readUInt32LE(at + 42),
    };
    at += 46 + nameLength + buf.readUInt16LE(at + 30) + buf.readUInt16LE(at + 32);
    if (flags & 0x1) throw damaged(`${name} is encrypted`);
    if (name.endsWith('/')) continue;
    total += entry.size;
    if (total > unpackedBytes) throw downloadTooLarge(`${what} (unpacked)`, unpackedBytes, undefined);
    listed.push(entry);
  }
  return listed.map((entry) => {
    const { name, local } = entry;
    if (local + 30 > buf.length || buf.readUInt32LE(local) !== LOCAL)
      throw damaged(`a broken local header for ${name}`);
    const start = local + 30 + buf.readUInt16LE(local + 26) + buf.readUInt16LE(local + 28);
    if (start + entry.compressed > buf.length) throw damaged(`${name} is cut short`);
    const data = buf.subarray(start, start + entry.compressed);
    let bytes: Uint8Array;
    if (entry.method === 0) bytes = data;
    else if (entry.method === 8) {
      try {
        bytes = inflateSync(data, { out: new Uint8Array(entry.size) });
      } catch {
        throw damaged(`${name} does not inflate`);
      }
    } else throw damaged(`${name} is compressed with method ${entry.method}`);
    if (bytes.length !== entry.size || crc32(bytes) !== entry.crc) throw damaged(`${name} does not match its checksum`);
    if (!Buffer.from(bytes.subarray(0, 1024)).includes('%PDF-'))
      throw new SignrunError(
        'SR_DOWNLOAD_NOT_DOCUMENT',
        `${what}: ${name} is not a PDF (no %PDF- header): nothing was written`,
        { details: { kind: 'pdf', entry: name } },
      );
    return { name, bytes };
  });
}
