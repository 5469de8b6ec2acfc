import { createHash } from 'node:crypto';
import { unlinkSync } from 'node:fs';
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

/**
 * Temp files of this process that exist now (created, not yet renamed or
 * removed): what removeLiveTempFiles removes when the process must end at
 * once.
 */
const liveTemps = new Set<string>();

/**
 * Removes, synchronously, every temp file this process has open and not yet
 * renamed into place, and returns how many: for an exit that cannot wait for
 * the writes in flight (a second Ctrl-C or SIGTERM), so that nothing of a
 * file that was never whole stays behind (issue 36: a killed preview left
 * `.preview-….png.<pid>.tmp` files). What a temp file would have become was
 * not written, and nothing records it as written until its rename.
 */
export function removeLiveTempFiles(): number {
  let removed = 0;
  for (const temp of liveTemps) {
    try {
      unlinkSync(temp);
      removed += 1;
    } catch {
      // Already renamed or removed by a write finishing meanwhile.
    }
  }
  liveTemps.clear();
  return removed;
}

/** Removes a temp file that will not be renamed. */
async function dropTemp(temp: string): Promise<void> {
  await rm(temp, { force: true });
  liveTemps.delete(temp);
}

/** Folders known to exist, so that thousands of files do not each pay a mkdir. */
const knownFolders = new Set<string>();

/** Tells the writer that `folder` exists (its caller made or checked it): no mkdir before its first file. */
export function noteFolderExists(folder: string): void {
  knownFolders.add(folder);
}

async function ensureFolder(folder: string): Promise<void> {
  if (knownFolders.has(folder)) return;
  await mkdir(folder, { recursive: true });
  knownFolders.add(folder);
}

/** Creates the temp file; when a folder known to exist was removed meanwhile, makes it again once. */
async function openTemp(temp: string, mode: number) {
  let handle;
  try {
    handle = await open(temp, 'wx', mode);
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
    knownFolders.delete(path.dirname(temp));
    await ensureFolder(path.dirname(temp));
    handle = await open(temp, 'wx', mode);
  }
  liveTemps.add(temp);
  return handle;
}

/**
 * Content written to a temp file beside its target, with its size and
 * sha256 known, not yet in place. `commit` makes it the target (fsync, then
 * rename: atomic on POSIX); when that fails the temp file is removed. Either
 * way the handle is closed. Committing is separate so that a caller can let
 * the fsync run while it goes on with other work (write-behind).
 */
export interface StagedFile extends ContentDigest {
  commit(): Promise<void>;
  /**
   * Flushes the temp file to disk and closes its handle now; `commit` then
   * only renames. For callers that stage many files before committing any
   * (output/staged-files.ts), so that no handle stays open per file.
   */
  seal(): Promise<void>;
  /** Removes the temp file (closing its handle): the target stays as it was. */
  discard(): Promise<void>;
}

type TempHandle = Awaited<ReturnType<typeof openTemp>>;

function staged(target: string, temp: string, handle: TempHandle, digest: ContentDigest): StagedFile {
  let open = true;
  const seal = async () => {
    if (!open) return;
    open = false;
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  };
  return {
    ...digest,
    async commit() {
      try {
        await seal();
        await rename(temp, target);
        liveTemps.delete(temp);
      } catch (error) {
        await dropTemp(temp);
        throw error;
      }
    },
    async seal() {
      try {
        await seal();
      } catch (error) {
        await dropTemp(temp);
        throw error;
      }
    },
    async discard() {
      if (open) {
        open = false;
        await handle.close().catch(() => undefined);
      }
      await dropTemp(temp);
    },
  };
}

/** Size and sha256 of `bytes`. */
export function digestOf(bytes: Uint8Array): ContentDigest {
  return { size: bytes.byteLength, sha256: createHash('sha256').update(bytes).digest('hex') };
}

/**
 * Writes `data` to a temp file beside `target` (created with `mode`, default
 * 0o644; the umask can only narrow it). `digest` is the bytes' digest when
 * the caller has it already.
 */
export async function stageFile(
  target: string,
  data: string | Uint8Array,
  mode = 0o644,
  digest?: ContentDigest,
): Promise<StagedFile> {
  await ensureFolder(path.dirname(target));
  const temp = tempPathFor(target);
  const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
  const handle = await openTemp(temp, mode);
  try {
    await handle.writeFile(bytes);
  } catch (error) {
    await handle.close();
    await dropTemp(temp);
    throw error;
  }
  return staged(target, temp, handle, digest ?? digestOf(bytes));
}

/**
 * The disk refused a streamed write (folder, temp file, or a chunk): told
 * apart from a failure of the body being read, which passes through as it is
 * (a broken download is the client's to retry; a full disk is not).
 */
export class DiskWriteError extends Error {
  constructor(readonly reason: unknown) {
    super(reason instanceof Error ? reason.message : String(reason));
    this.name = 'DiskWriteError';
  }
}

/** What a streamed write gathers of small chunks before it writes them (a download's chunks are this size already). */
const WRITE_BATCH_BYTES = 64 * 1024;

/**
 * Streams `body` into a temp file beside `target`, computing size and sha256
 * on the way, never holding more than 64 KB of it in memory: small chunks are
 * gathered up to that and written together (backpressure: the next is read
 * after the write). On any failure the body is released (an HTTP answer left
 * unread would hold its connection, and the pool has one per request in
 * flight) and no temp file is left.
 */
export async function stageStream(target: string, body: AsyncIterable<unknown>, mode = 0o644): Promise<StagedFile> {
  const chunks = body[Symbol.asyncIterator]();
  const temp = tempPathFor(target);
  let handle: TempHandle;
  try {
    await ensureFolder(path.dirname(target));
    handle = await openTemp(temp, mode);
  } catch (error) {
    await release(body, chunks);
    throw new DiskWriteError(error);
  }
  const hash = createHash('sha256');
  let size = 0;
  // Small chunks (a report's line per envelope) are gathered up to WRITE_BATCH_BYTES and written
  // together: each write is a round trip to the threadpool, one per envelope before.
  let gathered: Uint8Array[] = [];
  let gatheredBytes = 0;
  const writeGathered = async () => {
    const bytes = gathered.length === 1 ? (gathered[0] as Uint8Array) : Buffer.concat(gathered);
    gathered = [];
    gatheredBytes = 0;
    let offset = 0;
    while (offset < bytes.byteLength) {
      try {
        const { bytesWritten } = await handle.write(bytes, offset, bytes.byteLength - offset);
        offset += bytesWritten;
      } catch (error) {
        throw new DiskWriteError(error);
      }
    }
  };
  try {
    for (;;) {
      const next = await chunks.next();
      if (next.done) break;
      const chunk: unknown = next.value;
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Uint8Array);
      hash.update(bytes);
      size += bytes.byteLength;
      gathered.push(bytes);
      gatheredBytes += bytes.byteLength;
      if (gatheredBytes >= WRITE_BATCH_BYTES) await writeGathered();
    }
    if (gatheredBytes > 0) await writeGathered();
  } catch (error) {
    await release(body, chunks);
    await handle.close();
    await dropTemp(temp);
    throw error;
  }
  return staged(target, temp, handle, { size, sha256: hash.digest('hex') });
}

/** Stops reading `body`: a stream is destroyed (an iterator not yet started would not do it on return). */
async function release(body: AsyncIterable<unknown>, chunks: AsyncIterator<unknown>): Promise<void> {
  const stream = body as { destroy?: () => void };
  if (typeof stream.destroy === 'function') stream.destroy();
  else await chunks.return?.();
}

/** Writes `data` to `target` whole or not at all: {@link stageFile}, then commit. */
export async function writeFileAtomic(target: string, data: string | Uint8Array, mode = 0o644): Promise<ContentDigest> {
  const file = await stageFile(target, data, mode);
  await file.commit();
  return { size: file.size, sha256: file.sha256 };
}

/** Streams `body` into `target` whole or not at all: {@link stageStream}, then commit. */
export async function writeStreamAtomic(
  target: string,
  body: AsyncIterable<unknown>,
  mode = 0o644,
): Promise<ContentDigest> {
  const file = await stageStream(target, body, mode);
  await file.commit();
  return { size: file.size, sha256: file.sha256 };
}
