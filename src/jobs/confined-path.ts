import { lstatSync, realpathSync, statSync } from 'node:fs';
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
  const parent = dirname(absolute);
  let parentReal = folders.get(parent);
  if (parentReal === undefined) {
    try {
      parentReal = realpathSync.native(parent);
    } catch {
      parentReal = null;
    }
    folders.set(parent, parentReal);
  }
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

/** Both paths are absolute and normalised (path.resolve, realpath), so a prefix test is exact and much cheaper than path.relative. */
function inside(folder: string, path: string): boolean {
  const prefix = folder.endsWith(sep) ? folder : folder + sep;
  return path.length > prefix.length && path.startsWith(prefix);
}
