import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/**
 * What the `docs:*` scripts do with each file they generate, named from the
 * repository's root (this file's folder's parent's, in src/ and dist/
 * alike): `text` of what is there ('' for a file not there yet) is written
 * whole (temp + rename) when it differs, and named; an unchanged file is
 * left alone, so that its time stamp says when it last changed.
 */
export function updateGeneratedFile(relative: string, text: (before: string) => string): void {
  const path = fileURLToPath(new URL(`../../${relative}`, import.meta.url));
  let before = '';
  try {
    before = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  const after = text(before);
  if (after === before) return;
  writeFileSync(`${path}.tmp`, after);
  renameSync(`${path}.tmp`, path);
  console.log(`updated ${relative}`);
}
