import { createHash } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

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

/** Folders known to exist, so that thousands of files do not each pay a mkdir. */
const knownFolders = new Set<string>();

async function ensureFolder(folder: string): Promise<void> {
  if (knownFolders.has(folder)) return;
  await mkdir(folder, { recursive: true });
  knownFolders.add(folder);
}

/** Creates the temp file; when a folder known to exist was removed meanwhile, makes it again once. */
async function openTemp(temp: string, mode: number) {
  try {
    return await open(temp, 'wx', mode);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    knownFolders.delete(path.dirname(temp));
    await ensureFolder(path.dirname(temp));
    return open(temp, 'wx', mode);
  }
}

/**
 * Writes `data` to `target` whole or not at all: a temp file in the same
 * folder, created with `mode` (default 0o644; the umask can only narrow
 * it), fsync, then rename over the target (atomic on POSIX).
 */
export async function writeFileAtomic(target: string, data: string | Uint8Array, mode = 0o644): Promise<ContentDigest> {
  await ensureFolder(path.dirname(target));
  const temp = tempPathFor(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  try {
    const handle = await openTemp(temp, mode);
    try {
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
 * sha256 on the way, never holding the content in memory. Chunks are
 * written as they come (backpressure: the next is read after the write).
 */
export async function writeStreamAtomic(
  target: string,
  body: AsyncIterable<unknown>,
  mode = 0o644,
): Promise<ContentDigest> {
  await ensureFolder(path.dirname(target));
  const temp = tempPathFor(target);
  const hash = createHash('sha256');
  let size = 0;
  try {
    const handle = await openTemp(temp, mode);
    try {
      for await (const chunk of body) {
        const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
        hash.update(bytes);
        size += bytes.byteLength;
        let offset = 0;
        while (offset < bytes.byteLength) {
          const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
          offset += bytesWritten;
        }
      }
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
