import {
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputFolder } from '../../src/output/output-folder.js';
import { removeLiveTempFiles } from '../../src/output/atomic-write.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';

// Write-behind files on the file writer's thread (output/file-writer.ts). The
// thread is the built one (dist/: `npm run build` first), as `run` starts it;
// stand-in threads (scripts written here) play one that lies or dies.
const builtScript = new URL('../../dist/output/file-writer-worker.js', import.meta.url);
const dirs: string[] = [];
const folders: OutputFolder[] = [];
afterEach(() => {
  for (const f of folders.splice(0)) f.closeWriter();
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function tempDir(): string {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'signrun-file-writer-'));
  dirs.push(dir);
  return dir;
}
function outputFolder(writerScript: URL | false): OutputFolder {
  const out = new OutputFolder(tempDir(), { writerScript, writerAfter: 0 });
  folders.push(out);
  return out;
}
/** A stand-in thread's script, from its body (an ES module with parentPort in scope). */
function standIn(body: string): URL {
  const file = path.join(tempDir(), 'stand-in.mjs');
  writeFileSync(file, `import { parentPort } from 'node:worker_threads';\nimport * as fs from 'node:fs';\n${body}\n`);
  return pathToFileURL(file);
}
const tempsIn = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.tmp'));

describe('file writer thread (OutputFolder.writeFileBehind)', () => {
  it('writes what the main thread would: the same bytes, the same modes, the same digest', async () => {
    const written: Record<string, { bytes: string; mode: number; sha256: string; size: number }[]> = {};
    for (const [name, script] of [
      ['thread', builtScript],
      ['here', false],
    ] as const) {
      const out = outputFolder(script);
      const files = [
        out.writeJsonBehind('job/e-1/envelope.json', { key: 'e-1', name: 'Zoë Ünal ✓' }),
        out.writeJsonBehind('job/e-1/signing.json', { url: 'https://x' }, { mode: 0o600 }),
        out.writeFileBehind('job/e-2/blob.bin', new Uint8Array([0, 1, 2, 255])),
      ];
      await Promise.all(files.map((f) => f.committed));
      written[name] = files.map((f) => ({
        bytes: readFileSync(path.join(out.root, f.path)).toString('hex'),
        mode: statSync(path.join(out.root, f.path)).mode & 0o777,
        sha256: f.sha256,
        size: f.size,
      }));
      expect(tempsIn(path.join(out.root, 'job/e-1'))).toEqual([]);
    }
    expect(written['thread']).toEqual(written['here']);
    expect(written['thread']?.map((f) => f.mode)).toEqual([0o644, 0o600, 0o644]);
  });

  it('goes through the thread: a stand-in that makes the folders but answers writes without writing leaves no file', async () => {
    const out = outputFolder(
      standIn(
        `parentPort.on('message', (r) => { if (r.kind === 'folder') fs.mkdirSync(r.folder); parentPort.postMessage({ id: r.id, ok: true, made: r.kind === 'folder' }); });`,
      ),
    );
    const file = out.writeJsonBehind('job/e-1/envelope.json', { key: 'e-1' });
    await file.committed;
    expect(readdirSync(path.join(out.root, 'job/e-1'))).toEqual([]);
  });

  it("turns the disk's refusal into SR_OUTPUT_WRITE naming the file, and leaves no temp file", async () => {
    const out = outputFolder(builtScript);
    // A folder where the file should go: the thread's rename is refused (EISDIR).
    mkdirSync(path.join(out.root, 'job/e-1/envelope.json'), { recursive: true });
    const error = (await out
      .writeJsonBehind('job/e-1/envelope.json', { key: 'e-1' })
      .committed.catch((e: unknown) => e)) as SignrunError;
    expect(error.code).toBe('SR_OUTPUT_WRITE');
    expect(error.message).toContain('could not write job/e-1/envelope.json: EISDIR');
    expect(tempsIn(path.join(out.root, 'job/e-1'))).toEqual([]);
  });

  it('still refuses to replace a link', async () => {
    const out = outputFolder(builtScript);
    const outside = path.join(tempDir(), 'outside.json');
    writeFileSync(outside, 'theirs');
    mkdirSync(path.join(out.root, 'job/e-1'), { recursive: true });
    symlinkSync(outside, path.join(out.root, 'job/e-1/envelope.json'));
    const error = (await out
      .writeJsonBehind('job/e-1/envelope.json', { key: 'e-1' })
      .committed.catch((e: unknown) => e)) as SignrunError;
    expect(error.code).toBe('SR_OUTPUT_LINK');
    expect(readFileSync(outside, 'utf8')).toBe('theirs');
  });

  it('falls back to the main thread when the thread dies mid-write: every file whole, no temp file left', async () => {
    // Makes the folder, then leaves half a temp file and ends at the first write.
    const out = outputFolder(
      standIn(
        `parentPort.on('message', (r) => { if (r.kind === 'folder') { fs.mkdirSync(r.folder); parentPort.postMessage({ id: r.id, ok: true, made: true }); } else { fs.writeFileSync(r.temp, 'half'); process.exit(1); } });`,
      ),
    );
    const files = Array.from({ length: 5 }, (_, i) => out.writeJsonBehind(`job/e-${i}.json`, { i }));
    await Promise.all(files.map((f) => f.committed));
    for (const [i, f] of files.entries())
      expect(JSON.parse(readFileSync(path.join(out.root, f.path), 'utf8'))).toEqual({ i });
    expect(tempsIn(path.join(out.root, 'job'))).toEqual([]);
    // Later writes go the main thread's way from the start.
    await out.writeJsonBehind('job/later.json', { later: true }).committed;
    expect(JSON.parse(readFileSync(path.join(out.root, 'job/later.json'), 'utf8'))).toEqual({ later: true });
  });

  it('writes the first files of a folder here, and only then starts the thread', async () => {
    // A stand-in that answers without writing: the files it was given are absent.
    const out = new OutputFolder(tempDir(), {
      writerScript: standIn(
        `parentPort.on('message', (r) => { if (r.kind === 'folder') fs.mkdirSync(r.folder); parentPort.postMessage({ id: r.id, ok: true, made: r.kind === 'folder' }); });`,
      ),
      writerAfter: 2,
    });
    folders.push(out);
    const files = Array.from({ length: 4 }, (_, i) => out.writeJsonBehind(`job/e-${i}.json`, { i }));
    await Promise.all(files.map((f) => f.committed));
    expect(readdirSync(path.join(out.root, 'job')).sort()).toEqual(['e-0.json', 'e-1.json']);
  });

  it('falls back when the thread cannot start', async () => {
    const out = outputFolder(standIn(`throw new Error('no thread today');`));
    const file = out.writeJsonBehind('job/e-1/envelope.json', { key: 'e-1' });
    await file.committed;
    expect(JSON.parse(readFileSync(path.join(out.root, file.path), 'utf8'))).toEqual({ key: 'e-1' });
  });

  it('removeLiveTempFiles stops the thread: files renamed before are whole, the rest not written, no temp file', async () => {
    const out = outputFolder(builtScript);
    await out.writeJsonBehind('job/first.json', { first: true }).committed; // the folder is checked: the rest go at once
    const files = Array.from({ length: 2000 }, (_, i) => out.writeJsonBehind(`job/e-${i}.json`, { i }));
    // Once one is answered, all 2,000 were handed to the thread (in one turn of the loop before it).
    await Promise.race(files.map((f) => f.committed));
    removeLiveTempFiles();
    expect(tempsIn(path.join(out.root, 'job'))).toEqual([]);
    const settled = await Promise.allSettled(files.map((f) => f.committed));
    const written = settled.filter((s) => s.status === 'fulfilled').length;
    expect(written).toBeGreaterThan(0);
    expect(written).toBeLessThan(files.length);
    for (const s of settled)
      if (s.status === 'rejected') expect((s.reason as Error).message).toContain('the process is stopping at once');
    const names = readdirSync(path.join(out.root, 'job'));
    expect(tempsIn(path.join(out.root, 'job'))).toEqual([]);
    expect(names).toHaveLength(written + 1);
    for (const [i, f] of files.entries())
      if (names.includes(path.basename(f.path)))
        expect(JSON.parse(readFileSync(path.join(out.root, f.path), 'utf8'))).toEqual({ i });
  });
});
