import { Dirent, readdir } from 'node:fs';
import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import fg from 'fast-glob';

/**
 * The job files named by paths, folders (their *.yaml and *.yml files,
 * recursively) and globs, as sorted absolute paths without repeats.
 * `unmatched` lists what matched nothing, for the error message.
 */
export async function findJobFiles(patterns: string[], cwd: string): Promise<{ files: string[]; unmatched: string[] }> {
  const files = new Set<string>();
  const unmatched: string[] = [];
  for (const pattern of patterns) {
    const absolute = resolve(cwd, pattern);
    let found: string[];
    const info = await stat(absolute).catch(() => undefined);
    if (info?.isFile()) {
      found = [absolute];
    } else if (info?.isDirectory()) {
      found = await fg('**/*.{yaml,yml}', {
        cwd: absolute,
        absolute: true,
        onlyFiles: true,
        ignore: ['**/node_modules/**'],
        fs: { readdir: readdirOfJobFolder },
      });
    } else {
      found = await fg(pattern.replace(/\\/g, '/'), {
        cwd,
        absolute: true,
        onlyFiles: true,
        ignore: ['**/node_modules/**'],
      });
    }
    if (found.length === 0) unmatched.push(pattern);
    for (const file of found) files.add(resolve(file));
  }
  return { files: [...files].sort(), unmatched };
}

/**
 * fast-glob's `readdir` for a folder's job files: a plain file not named
 * *.yaml or *.yml is left out of the listing, since the pattern could not
 * take it. fast-glob made an entry, a path and a task of each before
 * dropping it (issue 37: a campaign's 10,000 letters in the job's folder were
 * ~28 ms of `validate`'s start, before the CSV). Folders, links and the rest
 * go through, for fast-glob to decide as before.
 */
function readdirOfJobFolder(path: string, ...rest: unknown[]): void {
  const callback = rest.pop() as (error: NodeJS.ErrnoException | null, entries: unknown[]) => void;
  const filtered = (error: NodeJS.ErrnoException | null, entries: unknown[]) =>
    callback(error, error ? entries : entries.filter(mayBeJobFile));
  (readdir as (...args: unknown[]) => void)(path, ...rest, filtered);
}

function mayBeJobFile(entry: unknown): boolean {
  if (!(entry instanceof Dirent) || !entry.isFile()) return true;
  const name = entry.name as string;
  return name.endsWith('.yaml') || name.endsWith('.yml');
}
