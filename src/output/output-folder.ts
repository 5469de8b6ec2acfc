import { lstat, mkdir, readdir, rename, rm, unlink } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { SignrunError } from '../errors/signrun-error.js';
import { pathSegmentProblem } from './output-names.js';
import { processIsAlive } from './process-alive.js';
import {
  DiskWriteError,
  digestOf,
  noteFolderExists,
  stageFile,
  stageStream,
  writeFileAtomic,
  type ContentDigest,
} from './atomic-write.js';

/** A file written under the output folder, as the report lists it. */
export interface FileRecord extends ContentDigest {
  /** Relative to the output folder, with `/` separators. */
  path: string;
}

/**
 * A file whose content, size and sha256 are known while its commit to disk
 * (fsync, rename) is still under way: write-behind, so that a run's next API
 * call does not wait for the disk. The file is in place, whole, only once
 * `committed` resolves; it rejects with SR_OUTPUT_WRITE when it could not be.
 */
export interface CommittingFile extends FileRecord {
  committed: Promise<void>;
}

/** Options of a write. */
export interface WriteOptions {
  /** File mode. Default 0o644; signing.json uses 0o600. */
  mode?: number;
}

/**
 * The one writer of run outputs: every file goes under `root`, atomically
 * (temp + rename); a path that would land outside is refused
 * (SR_OUTPUT_OUTSIDE) before anything is written.
 *
 * Nothing under the root is followed if it is a symbolic link: each folder
 * between the root and a file is made here one level at a time and checked
 * with lstat (a link there is refused, SR_OUTPUT_LINK), a file that is a
 * link is neither written through nor replaced, and temp files are created
 * exclusively (O_EXCL: never through a link). The root itself may be a link:
 * that is the user's choice of place. Folders once checked are remembered
 * for the process, so thousands of files do not each pay the walk; a link
 * swapped in for a checked folder while the run is going is the one case
 * left (Node has no openat to close it).
 */
export class OutputFolder {
  readonly root: string;
  /**
   * Folders under the root checked to be real folders (not links): strings
   * only, as many as folders written. `made`: this process made it, so
   * nothing was in it before (no file there to check for a link).
   */
  readonly #checked = new Map<string, 'made' | 'found'>();
  /** Checks under way, so that concurrent writes into one new folder share one. */
  readonly #checking = new Map<string, Promise<void>>();
  /** {@link firstListing}'s answers, one per folder asked. */
  readonly #firstListings = new Map<string, Promise<ReadonlySet<string> | undefined>>();

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /**
   * Throws SR_OUTPUT_LINK when `folder` (absolute, under the root), a folder
   * between the root and it, or an entry directly in it is a symbolic link.
   * For folders other writers keep in the output folder (the state folder):
   * checked before they are used. A folder that does not exist yet passes.
   */
  async refuseLinksIn(folder: string): Promise<void> {
    const rel = path.relative(this.root, path.resolve(folder));
    if (rel.startsWith('..') || path.isAbsolute(rel)) return; // not ours to police
    let at = this.root;
    for (const part of rel === '' ? [] : rel.split(path.sep)) {
      at = path.join(at, part);
      const stats = await lstat(at).catch(() => undefined);
      if (!stats) return;
      if (stats.isSymbolicLink()) throw linkError(this.root, at);
    }
    const entries = await readdir(at, { withFileTypes: true }).catch(() => []);
    const link = entries.find((e) => e.isSymbolicLink());
    if (link) throw linkError(this.root, path.join(at, link.name));
  }

  /**
   * The names in the folder `relative` (a job's folder) as this instance
   * first listed it, before its own writes there, at most once per folder:
   * an empty set when the folder did not exist, undefined when it could not
   * be listed. A name missing from it was not there when the run began, so
   * it holds nothing of an earlier run (issue 37: a failed open per
   * envelope saved). Names made afterwards may or may not be listed.
   */
  firstListing(relative: string): Promise<ReadonlySet<string> | undefined> {
    let listing = this.#firstListings.get(relative);
    if (!listing) {
      listing = readdir(path.join(this.root, relative)).then(
        (names): ReadonlySet<string> | undefined => new Set(names),
        (error: NodeJS.ErrnoException) => (error.code === 'ENOENT' ? new Set<string>() : undefined),
      );
      this.#firstListings.set(relative, listing);
    }
    return listing;
  }

  /** Makes `target`'s folders (one level at a time, none a link) and checks that `target` is not a link. */
  async #prepare(target: string): Promise<void> {
    const folder = path.dirname(target);
    await this.#realFolder(folder);
    // In a folder this process made, a file is one it wrote or none (issue 37: an lstat per file saved).
    if (this.#checked.get(folder) === 'made') return;
    const stats = await lstat(target).catch(() => undefined);
    if (stats?.isSymbolicLink()) throw linkError(this.root, target);
  }

  async #realFolder(folder: string): Promise<void> {
    if (this.#checked.has(folder)) return;
    let checking = this.#checking.get(folder);
    if (!checking) {
      // A failure is not remembered: the next write looks again (and fails again while the link is there).
      checking = this.#checkFolder(folder).then((how) => {
        this.#checked.set(folder, how);
        noteFolderExists(folder);
      });
      this.#checking.set(folder, checking);
      checking.then(
        () => this.#checking.delete(folder),
        () => this.#checking.delete(folder),
      );
    }
    await checking;
  }

  /** Makes or checks one folder; says whether this process made it. */
  async #checkFolder(folder: string): Promise<'made' | 'found'> {
    if (folder === this.root) {
      await mkdir(folder, { recursive: true });
      await removeStaleTemps(folder);
      return 'found';
    }
    await this.#realFolder(path.dirname(folder));
    // mkdir first: a folder it makes is new and real (mkdir never follows a
    // link), so only one that was there already is looked at (issue 37: two
    // lstats per envelope folder saved).
    const made = await mkdir(folder).then(
      () => true,
      (error: NodeJS.ErrnoException) => {
        if (error.code === 'EEXIST') return false;
        throw error;
      },
    );
    if (made) return 'made';
    const stats = await lstat(folder);
    if (stats.isSymbolicLink()) throw linkError(this.root, folder);
    if (!stats.isDirectory()) throw Object.assign(new Error(`${folder} is not a folder`), { code: 'ENOTDIR' }) as Error;
    await removeStaleTemps(folder);
    return 'found';
  }

  /** Absolute path of `relative`, refused when it leaves the folder. */
  resolve(relative: string): string {
    const target = path.resolve(this.root, relative);
    const rel = path.relative(this.root, target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new SignrunError(
        'SR_OUTPUT_OUTSIDE',
        `refusing to write ${JSON.stringify(relative)}: it is outside the output folder ${this.root}`,
        {
          details: { path: relative },
        },
      );
    }
    return target;
  }

  /** The relative, `/`-separated form of a path built from parts (job, key, file name). */
  join(...parts: string[]): string {
    for (const part of parts) {
      if (pathSegmentProblem(part) !== undefined) {
        throw new SignrunError(
          'SR_OUTPUT_OUTSIDE',
          `refusing the path segment ${JSON.stringify(part)}: it is not a plain folder or file name`,
          {
            details: { segment: part },
          },
        );
      }
    }
    return parts.join('/');
  }

  async writeFile(relative: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<FileRecord> {
    const target = this.resolve(relative);
    try {
      await this.#prepare(target);
      return { path: relative, ...(await writeFileAtomic(target, data, options.mode)) };
    } catch (error) {
      throw wrapWriteError(relative, error);
    }
  }

  async writeJson(relative: string, value: unknown, options: WriteOptions = {}): Promise<FileRecord> {
    return this.writeFile(relative, `${JSON.stringify(value, null, 2)}\n`, options);
  }

  /** {@link writeFile}, write-behind: returns at once; the whole write runs meanwhile. */
  writeFileBehind(relative: string, data: string | Uint8Array, options: WriteOptions = {}): CommittingFile {
    const target = this.resolve(relative);
    const bytes = typeof data === 'string' ? Buffer.from(data, 'utf8') : data;
    const digest = digestOf(bytes);
    const written = this.#prepare(target)
      .then(() => stageFile(target, bytes, options.mode, digest))
      .then((file) => file.commit());
    return { path: relative, ...digest, committed: committedAs(relative, written) };
  }

  writeJsonBehind(relative: string, value: unknown, options: WriteOptions = {}): CommittingFile {
    return this.writeFileBehind(relative, `${JSON.stringify(value, null, 2)}\n`, options);
  }

  /**
   * {@link writeStream}, write-behind: resolves once the body is read into
   * the temp file (the download is over); fsync and rename run meanwhile.
   */
  async writeStreamBehind(relative: string, body: Readable, options: WriteOptions = {}): Promise<CommittingFile> {
    const file = await this.#stage(relative, body, options);
    return { path: relative, size: file.size, sha256: file.sha256, committed: committedAs(relative, file.commit()) };
  }

  /**
   * Streams a body to disk. Errors of the body itself (a broken download)
   * pass through unchanged; the disk's are SR_OUTPUT_WRITE.
   */
  async writeStream(relative: string, body: Readable, options: WriteOptions = {}): Promise<FileRecord> {
    const file = await this.#stage(relative, body, options);
    await committedAs(relative, file.commit());
    return { path: relative, size: file.size, sha256: file.sha256 };
  }

  /**
   * Moves a file within the folder (one rename: whole or not at all). A
   * source that is missing is not an error (false): a crash may have moved
   * it already. A link is neither moved nor replaced.
   */
  async move(fromRelative: string, toRelative: string): Promise<boolean> {
    const from = this.resolve(fromRelative);
    const to = this.resolve(toRelative);
    try {
      const stats = await lstat(from).catch(() => undefined);
      if (!stats) return false;
      if (stats.isSymbolicLink()) throw linkError(this.root, from);
      await this.#prepare(to);
      await rename(from, to);
      return true;
    } catch (error) {
      throw wrapWriteError(toRelative, error);
    }
  }

  /** Removes a file of the folder; a missing one is not an error (false). A link is refused. */
  async remove(relative: string): Promise<boolean> {
    const target = this.resolve(relative);
    try {
      const stats = await lstat(target).catch(() => undefined);
      if (!stats) return false;
      if (stats.isSymbolicLink()) throw linkError(this.root, target);
      await unlink(target);
      return true;
    } catch (error) {
      throw wrapWriteError(relative, error);
    }
  }

  async #stage(relative: string, body: Readable, options: WriteOptions) {
    let target: string;
    try {
      target = this.resolve(relative);
    } catch (error) {
      body.destroy(); // unread, it would hold its connection
      throw error;
    }
    try {
      await this.#prepare(target);
    } catch (error) {
      body.destroy();
      throw wrapWriteError(relative, error);
    }
    try {
      return await stageStream(target, body, options.mode);
    } catch (error) {
      throw error instanceof DiskWriteError ? wrapWriteError(relative, error.reason) : error;
    }
  }
}

/**
 * A commit as its owner sees it: failures are SR_OUTPUT_WRITE naming the
 * file, and the promise is marked as handled, so that a failure before the
 * owner awaits it is not an unhandled rejection (which ends the process);
 * the owner still sees the rejection when it awaits.
 */
function committedAs(relative: string, commit: Promise<void>): Promise<void> {
  const committed = commit.catch((error: unknown) => {
    throw wrapWriteError(relative, error);
  });
  committed.catch(() => undefined);
  return committed;
}

function wrapWriteError(relative: string, error: unknown): SignrunError {
  if (error instanceof SignrunError) return error;
  const code = (error as { code?: string }).code;
  return new SignrunError(
    'SR_OUTPUT_WRITE',
    `could not write ${relative}: ${code ?? (error instanceof Error ? error.message : String(error))}`,
    { cause: error },
  );
}

/** A temp file of atomic-write.ts: `.<name>.<pid>.<n>.tmp`. */
const TEMP_FILE = /^\..+\.(\d+)\.\d+\.tmp$/;

/**
 * Removes the temp files a killed run left in `folder` (a process killed
 * between writing a temp file and renaming it; one of signing.json holds
 * signing addresses): those of processes no longer alive. Runs once per
 * folder that existed before this process, when it first writes there.
 */
async function removeStaleTemps(folder: string): Promise<void> {
  const names = await readdir(folder).catch(() => [] as string[]);
  for (const name of names) {
    const pid = Number(TEMP_FILE.exec(name)?.[1] ?? Number.NaN);
    if (Number.isNaN(pid) || pid === process.pid || processIsAlive(pid)) continue;
    await rm(path.join(folder, name), { force: true }).catch(() => undefined);
  }
}

function linkError(root: string, at: string): SignrunError {
  const shown = path.relative(root, at) || '.';
  return new SignrunError(
    'SR_OUTPUT_LINK',
    `refusing to write through ${shown} in the output folder ${root}: it is a symbolic link, and signrun writes only under the output folder`,
    { details: { path: shown }, hint: `Remove the link (\`rm ${at}\`) and check who put it there, then run again.` },
  );
}
