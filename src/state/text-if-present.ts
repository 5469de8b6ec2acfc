import { readFile } from 'node:fs/promises';

/**
 * A state file's text, or undefined when there is none: the lock and the
 * target record are absent before a first run, which is no error. Any other
 * failure (permissions, a folder in the file's place) is thrown.
 */
export async function readTextIfPresent(path: string): Promise<string | undefined> {
  try {
    return await readFile(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}
