import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ResultSpool } from '../../src/output/result-spool.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

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
