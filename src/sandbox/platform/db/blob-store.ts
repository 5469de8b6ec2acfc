import { createHash } from 'node:crypto';
import { mkdirSync, existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { blobPacks } from './blob-packs.js';
import { startBlobWriter } from './blob-writer.js';

/**
 * Document bytes, content-addressed by sha256. On disk in append-only pack
 * files under `<dataDir>/blobs/` (db/blob-packs.ts); in memory when there is
 * no data folder. `put` returns only once the bytes are complete in the file
 * (written by the kernel, which keeps them if the process is killed), so a
 * row that refers to them can be committed afterwards safely.
 */
export interface BlobStore {
  /** Stores the bytes (once per content) and returns their sha256 (hex). */
  put(bytes: Buffer): string;
  /**
   * As put, the sha256 and the append done on the blob writer's thread in a
   * data folder (db/blob-writer.ts: the event loop's CPU a creation is what
   * caps creations a second); on this thread in memory and where no compiled
   * thread exists. The caller keeps its bytes (the thread gets a copy).
   */
  putAsync(bytes: Buffer): Promise<string>;
  /** The bytes of a sha256; throws when missing. */
  get(sha256: string): Buffer;
  has(sha256: string): boolean;
  /** Releases the open pack file (services.close calls it). */
  close(): void;
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export interface BlobStoreOptions {
  /** The blob writer's compiled thread (blob-writer-worker.js beside blob-writer.js); tests pass the built one. */
  writerScript?: URL;
}

export function createBlobStore(dataDir: string | undefined, options: BlobStoreOptions = {}): BlobStore {
  if (dataDir === undefined) return memoryBlobStore();
  const root = join(dataDir, 'blobs');
  mkdirSync(root, { recursive: true });
  const packs = blobPacks(root);
  // Data folders written before the packs (one file per document, blobs/ab/abcdef…) stay readable.
  const legacyPath = (hash: string) => join(root, hash.slice(0, 2), hash);
  // Looked for only when such a folder exists: a stat per new document otherwise (hot path).
  const legacy = readdirSync(root).some((name) => /^[0-9a-f]{2}$/.test(name));
  const has = (hash: string) => packs.has(hash) || (legacy && existsSync(legacyPath(hash)));
  // Started with what the folder holds, so that it writes none of it again (legacy files included: they
  // are looked up when a put finds them, below).
  const writer = startBlobWriter(root, packs.hashes(), options.writerScript);
  const put = (bytes: Buffer) => {
    const hash = sha256Hex(bytes);
    if (!has(hash)) {
      packs.append(hash, bytes);
      writer?.known(hash);
    }
    return hash;
  };
  return {
    put,
    async putAsync(bytes) {
      if (writer === undefined || !writer.alive() || legacy) return put(bytes);
      const { sha256, at } = await writer.put(bytes);
      if (at !== undefined) packs.record(sha256, at);
      return sha256;
    },
    get(hash) {
      return packs.read(hash) ?? readFileSync(legacyPath(hash));
    },
    has,
    close: () => {
      writer?.close();
      packs.close();
    },
  };
}

function memoryBlobStore(): BlobStore {
  const blobs = new Map<string, Buffer>();
  const put = (bytes: Buffer) => {
    const hash = sha256Hex(bytes);
    if (!blobs.has(hash)) blobs.set(hash, Buffer.from(bytes));
    return hash;
  };
  return {
    put,
    putAsync: async (bytes) => put(bytes),
    get(hash) {
      const bytes = blobs.get(hash);
      if (!bytes) throw new Error(`blob ${hash} missing`);
      return bytes;
    },
    has(hash) {
      return blobs.has(hash);
    },
    close() {},
  };
}
