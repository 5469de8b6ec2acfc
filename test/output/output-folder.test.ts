import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readFile, readdir, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { OutputFolder } from '../../src/output/output-folder.js';
import { safeFileName } from '../../src/output/output-paths.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';

/** A download body that breaks off after its first kilobyte. */
function brokenBody(): Readable {
  return new Readable({
    read() {
      this.push(Buffer.alloc(1024, 1));
      this.destroy(new Error('connection reset'));
    },
  });
}

async function folder() {
  return new OutputFolder(await mkdtemp(path.join(os.tmpdir(), 'signrun-out-')));
}

describe('OutputFolder', () => {
  it('refuses paths outside the folder before writing anything', async () => {
    const out = await folder();
    for (const bad of ['../escape.json', '/etc/passwd', 'a/../../b', '']) {
      const error = (await out.writeFile(bad, 'x').catch((e: unknown) => e)) as SignrunError;
      expect(error.code).toBe('SR_OUTPUT_OUTSIDE');
    }
    for (const segment of ['..', 'a/b', '.', '']) {
      expect(() => out.join('job', segment)).toThrowError(
        expect.objectContaining({ code: 'SR_OUTPUT_OUTSIDE' }) as Error,
      );
    }
    expect(await readdir(out.root)).toEqual([]);
    expect(await readdir(path.dirname(out.root))).not.toContain('escape.json');
  });

  it('writes whole files with size and sha256, and the mode asked for', async () => {
    const out = await folder();
    const record = await out.writeJson('job/key/signing.json', { url: 'x' }, { mode: 0o600 });
    const bytes = await readFile(path.join(out.root, 'job/key/signing.json'));
    expect(record).toEqual({
      path: 'job/key/signing.json',
      size: bytes.length,
      sha256: createHash('sha256').update(bytes).digest('hex'),
    });
    expect((await stat(path.join(out.root, 'job/key/signing.json'))).mode & 0o777).toBe(0o600);
    expect(await readdir(path.join(out.root, 'job/key'))).toEqual(['signing.json']);
  });

  it('a stream that fails leaves neither a partial file nor a temp file', async () => {
    const out = await folder();
    const failing = brokenBody();
    await expect(out.writeStream('job/key/certificate.pdf', failing)).rejects.toThrow('connection reset');
    expect(await readdir(path.join(out.root, 'job/key'))).toEqual([]);
  });

  it('replaces an existing file atomically', async () => {
    const out = await folder();
    await out.writeFile('report.json', 'old');
    const record = await out.writeStream('report.json', Readable.from([Buffer.from('new '), Buffer.from('content')]));
    expect(await readFile(path.join(out.root, 'report.json'), 'utf8')).toBe('new content');
    expect(record.size).toBe(11);
  });
});

describe('OutputFolder, write-behind', () => {
  it('gives size and sha256 at once, and the file is in place, whole, when `committed` resolves', async () => {
    const out = await folder();
    const json = out.writeJsonBehind('job/key/envelope.json', { envelopeId: 'e-1' });
    const streamed = await out.writeStreamBehind(
      'job/key/documents/1-offer.pdf',
      Readable.from([Buffer.from('%PDF-1.7 '), Buffer.from('body')]),
    );
    await Promise.all([json.committed, streamed.committed]);
    for (const file of [json, streamed]) {
      const bytes = await readFile(path.join(out.root, file.path));
      expect({ size: file.size, sha256: file.sha256 }).toEqual({
        size: bytes.length,
        sha256: createHash('sha256').update(bytes).digest('hex'),
      });
    }
    expect((await readdir(path.join(out.root, 'job/key'))).sort()).toEqual(['documents', 'envelope.json']);
    expect(await readdir(path.join(out.root, 'job/key/documents'))).toEqual(['1-offer.pdf']);
  });

  it('a commit that fails rejects `committed` with SR_OUTPUT_WRITE and leaves no temp file', async () => {
    const out = await folder();
    // A folder (not empty) where the file should go: rename cannot replace it.
    await mkdir(path.join(out.root, 'job/key/certificate.pdf'), { recursive: true });
    await writeFile(path.join(out.root, 'job/key/certificate.pdf/keep'), 'x');
    const file = await out.writeStreamBehind('job/key/certificate.pdf', Readable.from([Buffer.from('%PDF')]));
    expect(file.size).toBe(4);
    await expect(file.committed).rejects.toMatchObject({ code: 'SR_OUTPUT_WRITE' });
    expect(await readdir(path.join(out.root, 'job/key'))).toEqual(['certificate.pdf']);
    const behind = out.writeFileBehind('job/key/certificate.pdf', 'x');
    await expect(behind.committed).rejects.toMatchObject({ code: 'SR_OUTPUT_WRITE' });
    expect(await readdir(path.join(out.root, 'job/key'))).toEqual(['certificate.pdf']);
  });

  it('a disk that refuses gives SR_OUTPUT_WRITE and releases the unread body (it would hold its connection)', async () => {
    const out = await folder();
    await writeFile(path.join(out.root, 'job'), 'a file where the folder should be');
    for (const write of [
      (body: Readable) => out.writeStreamBehind('job/key/certificate.pdf', body),
      (body: Readable) => out.writeStream('job/key/certificate.pdf', body),
    ]) {
      const body = Readable.from([Buffer.from('%PDF')]);
      await expect(write(body)).rejects.toMatchObject({ code: 'SR_OUTPUT_WRITE' });
      expect(body.destroyed).toBe(true);
    }
    expect(await readdir(out.root)).toEqual(['job']);
  });

  it('a body that breaks off rejects at once, with nothing to commit and nothing left behind', async () => {
    const out = await folder();
    const failing = brokenBody();
    await expect(out.writeStreamBehind('job/key/certificate.pdf', failing)).rejects.toThrow('connection reset');
    expect(await readdir(path.join(out.root, 'job/key'))).toEqual([]);
  });
});

describe('safeFileName', () => {
  it.each([
    ['offer-letter.pdf', 'offer-letter.pdf'],
    ['Lettre d’offre (v2).pdf', 'Lettre-d-offre-v2-.pdf'],
    ['../../etc/passwd', 'etc-passwd'],
    ['', 'document'],
  ])('%j → %j', (name, expected) => {
    expect(safeFileName(name)).toBe(expected);
  });
});
