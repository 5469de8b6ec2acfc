import { lstatSync, readdirSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, join, sep } from 'node:path';

export type ConfinedPath =
  | { ok: true; real: string; size: number }
  | { ok: false; problem: 'outside' | 'symlink-outside' | 'missing' | 'not-a-file' };

/**
 * Resolves a file named in a job file and makes sure it stays inside the job
 * folder: by name (no ../ or absolute escapes) and on disk (no symbolic link
 * leading out, in the file or in any folder above it), so that a job file
 * cannot make signrun send /etc/passwd.
 *
 * Synchronous on purpose: for 10,000 per-row PDFs, fs/promises spends more
 * time hopping to the thread pool than the system calls take. Folder
 * realpaths are cached in `folders`.
 */
export function confinedPath(
  folder: string,
  folderReal: string,
  absolute: string,
  folders = new Map<string, string | null>(),
): ConfinedPath {
  if (!inside(folder, absolute)) return { ok: false, problem: 'outside' };
  const parentReal = realFolder(dirname(absolute), folders);
  if (parentReal === null) return { ok: false, problem: 'missing' };
  let real = join(parentReal, basename(absolute));
  let info;
  try {
    info = lstatSync(real);
    if (info.isSymbolicLink()) {
      real = realpathSync.native(real);
      info = statSync(real);
    }
  } catch {
    return { ok: false, problem: 'missing' };
  }
  if (!inside(folderReal, real)) return { ok: false, problem: 'symlink-outside' };
  if (!info.isFile()) return { ok: false, problem: 'not-a-file' };
  return { ok: true, real, size: info.size };
}

function realFolder(parent: string, folders: Map<string, string | null>): string | null {
  let parentReal = folders.get(parent);
  if (parentReal === undefined) {
    try {
      parentReal = realpathSync.native(parent);
    } catch {
      parentReal = null;
    }
    folders.set(parent, parentReal);
  }
  return parentReal;
}

/** A file found in its folder's listing: confined, but its size is the reader's to check (pdf-facts.ts). */
export type ListedConfinedPath = ConfinedPath | { ok: true; real: string; size: undefined };

/**
 * Folders named often enough to be listed, and their listings: which names
 * are plain files. Null for a folder that could not be listed.
 */
export interface FolderListings {
  named: Map<string, number>;
  files: Map<string, Set<string> | null>;
}

/** Files named in one folder before it is listed instead of each file looked up (`lstat`). */
export const listFrom = 32;

/**
 * {@link confinedPath}, for many files of one folder (a forEach's per-row
 * documents): from the {@link listFrom}th file named in a folder, the folder
 * is listed once and a name listed as a plain file needs no `lstat` (issue
 * 37: one a row was a tenth of `validate`'s main thread at 10,000 rows). Its
 * size is then unknown here: the reader refuses a file too large before
 * reading it. Anything else (a symbolic link, a folder, a name not listed,
 * as on a case-insensitive disk) is looked up as before.
 */
export function confinedListedPath(
  folder: string,
  folderReal: string,
  absolute: string,
  folders: Map<string, string | null>,
  listings: FolderListings,
): ListedConfinedPath {
  if (!inside(folder, absolute)) return { ok: false, problem: 'outside' };
  const parentReal = realFolder(dirname(absolute), folders);
  if (parentReal === null) return { ok: false, problem: 'missing' };
  const files = listingOf(parentReal, listings);
  const name = basename(absolute);
  if (!files?.has(name)) return confinedPath(folder, folderReal, absolute, folders);
  // A listed name is one plain name (no separator, not . or ..) and parentReal a realpath: joined without path.join's normalising.
  const real = parentReal.endsWith(sep) ? parentReal + name : parentReal + sep + name;
  if (!inside(folderReal, real)) return confinedPath(folder, folderReal, absolute, folders);
  return { ok: true, real, size: undefined };
}

function listingOf(folderReal: string, listings: FolderListings): Set<string> | null | undefined {
  const listed = listings.files.get(folderReal);
  if (listed !== undefined) return listed;
  const named = (listings.named.get(folderReal) ?? 0) + 1;
  listings.named.set(folderReal, named);
  if (named < listFrom) return undefined;
  let files: Set<string> | null = null;
  try {
    files = new Set();
    for (const entry of readdirSync(folderReal, { withFileTypes: true })) if (entry.isFile()) files.add(entry.name);
  } catch {
    // Unlistable (permissions): each file is looked up as before.
  }
  listings.files.set(folderReal, files);
  return files;
}

/**
 * Both paths are absolute and normalised (path.resolve, realpath), so a prefix test is exact and much cheaper than
 * path.relative. The folder and its separator are compared apart: `folder + sep` was a new string for every file.
 */
function inside(folder: string, path: string): boolean {
  if (folder.endsWith(sep)) return path.length > folder.length && path.startsWith(folder);
  return path.length > folder.length + 1 && path.charCodeAt(folder.length) === separator && path.startsWith(folder);
}
const separator = sep.charCodeAt(0);
