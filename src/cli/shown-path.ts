import path from 'node:path';

/** How a file or folder is shown to the user: relative to the working folder when inside it. */
export function shownPath(cwd: string, target: string): string {
  const rel = path.relative(cwd, target);
  return rel === '' ? '.' : !rel.startsWith('..') && !path.isAbsolute(rel) ? rel : target;
}
