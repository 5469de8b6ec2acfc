import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync, renameSync, existsSync } from 'node:fs';
import { writeFile, rename, mkdir } from 'node:fs/promises';
import { join } from 'node:path';

/**
 * Document bytes, content-addressed by sha256. On disk under
 * `<dataDir>/blobs/ab/abcdef…`; in memory when there is no data folder.
 * `put` returns only once the file is complete under its final name (temp +
 * rename), so a row that refers to it can be committed afterwards safely.
 */
export interface BlobStore {
  /** Stores the bytes (once per content) and returns their sha256 (hex). */
  put(bytes: Buffer): string;
  /** As put, with the file writes on libuv's thread pool (the envelope-creation hot path). */
  putAsync(bytes: Buffer): Promise<string>;
  /** The bytes of a sha256; throws when missing. */
  get(sha256: string): Buffer;
  has(sha256: string): boolean;
}

export function sha256Hex(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}

export function createBlobStore(dataDir: string | undefined): BlobStore {
  if (dataDir === undefined) return memoryBlobStore();
  const root = join(dataDir, 'blobs');
  mkdirSync(root, { recursive: true });
  const pathOf = (hash: string) => join(root, hash.slice(0, 2), hash);
  // The 256 fan-out folders, created once each rather than on every put (hot path).
  const made = new Set<string>();
  return {
    put(bytes) {
      const hash = sha256Hex(bytes);
      const target = pathOf(hash);
      if (existsSync(target)) return hash;
      const folder = hash.slice(0, 2);
      if (!made.has(folder)) {
        mkdirSync(join(root, folder), { recursive: true });
        made.add(folder);
      }
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      // No fsync: the threat model is a killed process, whose writes the
      // kernel keeps; see openDatabase for the same trade-off.
      writeFileSync(temp, bytes);
      renameSync(temp, target);
      return hash;
    },
    async putAsync(bytes) {
      const hash = sha256Hex(bytes);
      const target = pathOf(hash);
      if (existsSync(target)) return hash;
      const folder = hash.slice(0, 2);
      if (!made.has(folder)) {
        await mkdir(join(root, folder), { recursive: true });
        made.add(folder);
      }
      const temp = `${target}.${randomBytes(6).toString('hex')}.tmp`;
      await writeFile(temp, bytes);
      await rename(temp, target);
      return hash;
    },
    get(hash) {
      return readFileSync(pathOf(hash));
    },
    has(hash) {
      return existsSync(pathOf(hash));
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
  };
}
