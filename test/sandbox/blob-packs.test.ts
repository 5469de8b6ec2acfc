import { afterEach, describe, expect, it } from 'vitest';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createBlobStore, sha256Hex, type BlobStore } from '../../src/sandbox/platform/db/blob-store.js';

const folders: string[] = [];
const stores: BlobStore[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-blobs-'));
  folders.push(dir);
  return dir;
}
function store(dataDir: string): BlobStore {
  const s = createBlobStore(dataDir);
  stores.push(s);
  return s;
}
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const packsIn = (dataDir: string) => readdirSync(join(dataDir, 'blobs')).filter((n) => n.endsWith('.blobs'));

describe('blob store on disk (append-only packs)', () => {
  it('returns the exact bytes by sha256, once per content, and after a reopen', () => {
    const dir = folder();
    const first = store(dir);
    const docs = [randomBytes(100 * 1024), randomBytes(10), randomBytes(3 * 1024 * 1024)];
    const hashes = docs.map((d) => first.put(d));
    expect(hashes).toEqual(docs.map((d) => sha256Hex(d)));
    const size = statSync(join(dir, 'blobs', packsIn(dir)[0]!)).size;
    expect(first.put(docs[0]!)).toBe(hashes[0]); // stored once
    expect(statSync(join(dir, 'blobs', packsIn(dir)[0]!)).size).toBe(size);
    first.close();
    const again = store(dir);
    for (const [i, d] of docs.entries()) {
      expect(again.has(hashes[i]!)).toBe(true);
      expect(again.get(hashes[i]!).equals(d)).toBe(true);
    }
    expect(again.has(sha256Hex(Buffer.from('never stored')))).toBe(false);
  });

  it('ignores a record cut short by a kill, keeps the ones before it, and writes to a new pack', () => {
    const dir = folder();
    const first = store(dir);
    const kept = randomBytes(50_000);
    const cut = randomBytes(50_000);
    const keptHash = first.put(kept);
    const cutHash = first.put(cut);
    first.close();
    const [pack] = packsIn(dir);
    truncateSync(join(dir, 'blobs', pack!), statSync(join(dir, 'blobs', pack!)).size - 1000);
    const again = store(dir);
    expect(again.get(keptHash).equals(kept)).toBe(true);
    expect(again.has(cutHash)).toBe(false);
    expect(again.put(cut)).toBe(cutHash);
    expect(packsIn(dir)).toHaveLength(2);
    expect(store(dir).get(cutHash).equals(cut)).toBe(true);
  });

  it('reads what another process appended to its own pack since the start', () => {
    const dir = folder();
    const reader = store(dir);
    const writer = store(dir);
    const doc = randomBytes(20_000);
    const hash = writer.put(doc);
    expect(reader.get(hash).equals(doc)).toBe(true);
  });

  it('still reads the one-file-per-document layout of older data folders', () => {
    const dir = folder();
    const doc = randomBytes(5000);
    const hash = sha256Hex(doc);
    mkdirSync(join(dir, 'blobs', hash.slice(0, 2)), { recursive: true });
    writeFileSync(join(dir, 'blobs', hash.slice(0, 2), hash), doc);
    const s = store(dir);
    expect(s.has(hash)).toBe(true);
    expect(s.get(hash).equals(doc)).toBe(true);
    expect(s.put(doc)).toBe(hash);
    expect(packsIn(dir)).toHaveLength(0);
  });

  it('fails (rather than writing into a deleted file) when the folder is removed under it', () => {
    const dir = folder();
    const s = store(dir);
    const hash = s.put(randomBytes(1000));
    rmSync(join(dir, 'blobs'), { recursive: true, force: true });
    expect(() => s.put(randomBytes(1000))).toThrow(expect.objectContaining({ code: 'ENOENT' }));
    expect(() => s.get(hash)).toThrow(expect.objectContaining({ code: 'ENOENT' }));
  });
});
