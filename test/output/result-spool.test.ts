import { spawn } from 'node:child_process';
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultSpool } from '../../src/output/result-spool.js';
import { SignrunError } from '../../src/errors/signrun-error.js';
import { repoRoot } from '../helpers/run-cli.js';

const folders: string[] = [];
async function folder(): Promise<string> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-spool-'));
  folders.push(dir);
  return dir;
}
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

async function all<T>(items: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const item of items) out.push(item);
  return out;
}

describe('ResultSpool', () => {
  it('reads items back in their order whatever the order they came in, skipping those never put', async () => {
    const dir = await folder();
    const spool = await ResultSpool.create<{ n: number; text: string }>(path.join(dir, 'r.jsonl'), 6);
    for (const n of [2, 0, 5, 1]) spool.put(n, { n, text: `item ${n} ✓\n"quoted"` });
    expect(spool.has(3)).toBe(false);
    expect(spool.has(5)).toBe(true);
    const read = await all(spool.read());
    expect(read.map((x) => x.n)).toEqual([0, 1, 2, 5]);
    expect(read[0]?.text).toBe('item 0 ✓\n"quoted"');
    // Read again, after more items: each read is afresh.
    spool.put(3, { n: 3, text: '' });
    expect((await all(spool.read())).map((x) => x.n)).toEqual([0, 1, 2, 3, 5]);
    await spool.close();
  });

  it('leaves no file in the folder, even before it is closed', async () => {
    const dir = await folder();
    const spool = await ResultSpool.create<number>(path.join(dir, 'sub', 'r.jsonl'), 1);
    spool.put(0, 42);
    await spool.flush();
    expect(await readdir(path.join(dir, 'sub'))).toEqual([]);
    expect(await all(spool.read())).toEqual([42]);
    await spool.close();
    await spool.close();
  });

  it('reads many items and items larger than a read batch', async () => {
    const dir = await folder();
    const count = 5000;
    const spool = await ResultSpool.create<{ i: number; pad: string }>(path.join(dir, 'r.jsonl'), count);
    const big = 'x'.repeat(1_500_000);
    // Nearly in order, as a run delivers them: pairs swapped.
    for (let i = 0; i < count; i += 2) {
      if (i + 1 < count) spool.put(i + 1, { i: i + 1, pad: i + 1 === 2001 ? big : 'p'.repeat(i % 300) });
      spool.put(i, { i, pad: 'p'.repeat(i % 300) });
    }
    const read = await all(spool.read());
    expect(read.map((x) => x.i)).toEqual(Array.from({ length: count }, (_, i) => i));
    expect(read[2001]?.pad).toBe(big);
    expect(read[4999]?.pad).toBe('p'.repeat(4998 % 300));
    await spool.close();
  });

  it('reads items that finished out of order, as the envelopes in progress of a run do, in a few reads of the file', async () => {
    const dir = await folder();
    const count = 2000;
    const spool = await ResultSpool.create<{ i: number; pad: string }>(path.join(dir, 'r.jsonl'), count);
    // 64 in progress at once, each group of 64 finishing in reverse: no two neighbours are side by side on disk.
    for (let group = 0; group < count; group += 64)
      for (let i = Math.min(group + 64, count) - 1; i >= group; i -= 1) spool.put(i, { i, pad: 'p'.repeat(400) });
    await spool.flush();
    const before = spool.reads;
    const read = await all(spool.read());
    expect(read.map((x) => x.i)).toEqual(Array.from({ length: count }, (_, i) => i));
    // About 850 KB of lines: a few windows of the file, not a read for each item (2,000 before).
    expect(spool.reads - before).toBeLessThanOrEqual(4);
    await spool.close();
  });

  it('refuses an item outside its numbers and a folder it cannot create (SR_OUTPUT_WRITE)', async () => {
    const dir = await folder();
    const spool = await ResultSpool.create<number>(path.join(dir, 'r.jsonl'), 2);
    expect(() => spool.put(2, 1)).toThrow(RangeError);
    await spool.close();
    expect(() => spool.put(0, 1)).toThrow();
    // A folder where a file is: the spool cannot be made.
    await writeFile(path.join(dir, 'file'), 'x');
    const error = await ResultSpool.create<number>(path.join(dir, 'file', 'r.jsonl'), 1).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SignrunError);
    expect((error as SignrunError).code).toBe('SR_OUTPUT_WRITE');
  });
});

describe('ResultSpool on a disk that refuses writes', () => {
  it('never hangs: after a failed write it keeps the items, says why, and reads every one back', async () => {
    const dir = await folder();
    // A file size limit (ulimit -f, KiB) is a full disk on demand; node ignores SIGXFSZ and sees EFBIG.
    const script = `
      import { ResultSpool } from ${JSON.stringify(pathToFileURL(path.join(repoRoot, 'dist/output/result-spool.js')).href)};
      const spool = await ResultSpool.create(${JSON.stringify(path.join(dir, 'r.jsonl'))}, 200);
      const pad = 'x'.repeat(200);
      for (let i = 0; i < 100; i++) spool.put(i, { i, pad });
      await spool.flush();
      for (let i = 100; i < 200; i++) { spool.put(i, { i, pad }); if (i % 10 === 0) await spool.flush(); }
      await spool.flush();
      const read = [];
      for await (const item of spool.read()) read.push(item.i);
      await spool.close();
      console.log(JSON.stringify({ failure: spool.failure?.code, message: spool.failure?.message, read }));
    `;
    const result = await new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
      const child = spawn('/bin/sh', [
        '-c',
        'ulimit -f 4 && exec "$0" --input-type=module -e "$1"',
        process.execPath,
        script,
      ]);
      let stdout = '';
      let stderr = '';
      child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
      child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      child.on('close', (code) => {
        clearTimeout(timer);
        resolve({ code, stdout, stderr });
      });
    });
    expect(result.code, result.stderr).toBe(0);
    const parsed = JSON.parse(result.stdout) as { failure: string; message: string; read: number[] };
    expect(parsed.failure).toBe('SR_OUTPUT_WRITE');
    expect(parsed.message).toMatch(/EFBIG/);
    expect(parsed.read).toEqual(Array.from({ length: 200 }, (_, i) => i));
  }, 30_000);
});
