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
