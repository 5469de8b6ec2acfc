import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import type { ContentDigest } from './atomic-write.js';

/** Size and sha256 of a file on disk, read as a stream; undefined when it does not exist or cannot be read. */
export async function fileDigest(absolutePath: string): Promise<ContentDigest | undefined> {
  const hash = createHash('sha256');
  let size = 0;
  try {
    for await (const chunk of createReadStream(absolutePath)) {
      const bytes = chunk as Buffer;
      hash.update(bytes);
      size += bytes.length;
    }
  } catch {
    return undefined;
  }
  return { size, sha256: hash.digest('hex') };
}
