import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import path from 'node:path';

/**
 * An import's console text and every file it wrote (path, size, sha256; the
 * job file whole), with what differs from run to run or checkout to
 * checkout made stable: the sandbox's port, the folders, and the ids the
 * sandbox makes, each numbered by its first appearance.
 */
export async function pinnedImport(dir: string, console: string, rootUrl: string): Promise<string> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  const files = entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
  const parts = [console];
  for (const file of files) {
    const bytes = await readFile(path.join(dir, file));
    // A job file whole (its schema comment points at this checkout); other files by their bytes' digest.
    if (file.endsWith('.yaml'))
      parts.push(`--- ${file}`, bytes.toString('utf8').replace(/\$schema=\S+/, '$schema=<schema>'));
    else parts.push(`--- ${file} (${bytes.length} bytes, sha256 ${createHash('sha256').update(bytes).digest('hex')})`);
  }
  const ids = new Map<string, string>();
  return parts
    .join('\n')
    .replaceAll(rootUrl, '<rootUrl>')
    .replaceAll(dir, '<dir>')
    .replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi, (id) => {
      if (!ids.has(id)) ids.set(id, `<id ${ids.size + 1}>`);
      return ids.get(id)!;
    });
}
