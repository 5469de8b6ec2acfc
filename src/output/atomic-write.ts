import { createHash } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { chmod, mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** Size and sha256 (hex) of bytes written. */
export interface ContentDigest {
  size: number;
  sha256: string;
}

let counter = 0;
function tempPathFor(target: string): string {
  counter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${counter}.tmp`);
}

/**
 * Writes `data` to `target` whole or not at all: a temp file in the same
 * folder, fsync, then rename over the target (atomic on POSIX). `mode`
 * (default 0o644) is set on the temp file before any byte is written.
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, mode = 0o644): Promise<ContentDigest> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = tempPathFor(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    const handle = await open(temp, 'wx', mode);
    try {
      await handle.chmod(mode);
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Streams `body` into `target` whole or not at all, computing size and
 * sha256 on the way, never holding the content in memory.
 */
export async function writeStreamAtomic(target: string, body: Readable, mode = 0o644): Promise<ContentDigest> {
  await mkdir(path.dirname(target), { recursive: true });
  const temp = tempPathFor(target);
  const hash = createHash('sha256');
  let size = 0;
  const tap = new Transform({
    transform(chunk: Buffer, _encoding, callback) {
      hash.update(chunk);
      size += chunk.length;
      callback(null, chunk);
    },
  });
  try {
    await pipeline(body, tap, createWriteStream(temp, { flags: 'wx', mode }));
    await chmod(temp, mode);
    const handle = await open(temp, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, target);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  return { size, sha256: hash.digest('hex') };
}
