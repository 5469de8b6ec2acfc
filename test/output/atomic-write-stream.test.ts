import { mkdtemp, readdir, readFile, rm, stat } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeStreamAtomic } from '../../src/output/atomic-write.js';

const folders: string[] = [];
afterEach(async () => {
  for (const dir of folders.splice(0)) await rm(dir, { recursive: true, force: true });
});

/** Bytes in the temp files of `dir` now (a streamed write's temp file lies beside its target). */
async function tempBytes(dir: string): Promise<number> {
  const temps = (await readdir(dir)).filter((name) => name.endsWith('.tmp'));
  const sizes = await Promise.all(temps.map(async (name) => (await stat(path.join(dir, name))).size));
  return sizes.reduce((a, b) => a + b, 0);
}

describe('writeStreamAtomic', () => {
  it('writes small chunks together (a report yields a line an envelope), yet never holds more than 64 KB of them', async () => {
    const dir = await mkdtemp(path.join(os.tmpdir(), 'signrun-stream-'));
    folders.push(dir);
    const chunk = (i: number) => `${String(i).padStart(3, '0')}${'x'.repeat(996)}\n`;
    // What the temp file holds on disk each time the writer asks for the next chunk.
    const onDisk: number[] = [];
    async function* lines(): AsyncGenerator<string> {
      for (let i = 0; i < 100; i += 1) {
        onDisk.push(await tempBytes(dir));
        yield chunk(i);
      }
    }
    const target = path.join(dir, 'report.json');
    const written = await writeStreamAtomic(target, lines());
    const expected = Array.from({ length: 100 }, (_, i) => chunk(i)).join('');
    expect(await readFile(target, 'utf8')).toBe(expected);
    expect(written.size).toBe(100_000);
    // 66 chunks of 1,000 bytes reach 64 KiB: nothing was written before, one write then (a write a chunk before: 65,000).
    expect(onDisk[65]).toBe(0);
    expect(onDisk[66]).toBe(66_000);
    expect(onDisk[99]).toBe(66_000);
    expect(await tempBytes(dir)).toBe(0);
  });
});
