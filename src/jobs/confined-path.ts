import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, relative } from 'node:path';

export type ConfinedPath =
  | { ok: true; real: string; size: number }
  | { ok: false; problem: 'outside' | 'symlink-outside' | 'missing' | 'not-a-file' };

/**
 * Resolves a file named in a job file and makes sure it stays inside the job
 * folder: by name (no ../ or absolute escapes) and on disk (no symbolic link
 * leading out), so that a job file cannot make signrun send /etc/passwd.
 */
export async function confinedPath(folder: string, folderReal: string, absolute: string): Promise<ConfinedPath> {
  if (!inside(folder, absolute)) return { ok: false, problem: 'outside' };
  let real: string;
  try {
    real = await realpath(absolute);
  } catch {
    return { ok: false, problem: 'missing' };
  }
  if (!inside(folderReal, real)) return { ok: false, problem: 'symlink-outside' };
  const info = await stat(real);
  if (!info.isFile()) return { ok: false, problem: 'not-a-file' };
  return { ok: true, real, size: info.size };
}

function inside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel);
}
