import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { SignrunError } from '../../errors/signrun-error.js';
import type { ResolvedDocument } from '../../jobs/model.js';

/**
 * A document's bytes as base64, only if they are the ones validated: a file
 * changed, or swapped for a link to a file outside the job folder, since
 * `validate` read it is refused (SR_DOC_CHANGED) instead of sent.
 */
export async function validatedBase64(doc: ResolvedDocument): Promise<string> {
  const bytes = await readFile(doc.path);
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  if (sha256 !== doc.sha256) {
    throw new SignrunError(
      'SR_DOC_CHANGED',
      `the document ${doc.path} (documentId ${doc.documentId}) changed after it was validated: not sent`,
      { details: { documentId: doc.documentId, validatedSha256: doc.sha256, sha256 } },
    );
  }
  return bytes.toString('base64');
}

/** What a {@link ValidatedDocuments} keeps at most: a few campaigns' shared documents, not one PDF per row. */
const keptBytes = 16 * 1024 * 1024;

/**
 * The validated documents of one run, read, hashed and base64-encoded once
 * per file and content rather than once per envelope (issue 37: the rows of
 * a forEach send the same few files thousands of times). What is sent is
 * still exactly what was validated: a document is verified against its
 * validated sha256 when first read, and the bytes kept are those bytes, so
 * a file changed later in the run changes nothing that is sent. At most
 * {@link keptBytes} of base64 are kept, the least recently used let go, so
 * a campaign of one letter per row holds a few letters, not all of them.
 */
export class ValidatedDocuments {
  readonly #kept = new Map<string, Promise<string>>();
  readonly #sizes = new Map<string, number>();
  #bytes = 0;

  base64(doc: ResolvedDocument): Promise<string> {
    const key = `${doc.sha256}\0${doc.path}`;
    const kept = this.#kept.get(key);
    if (kept) {
      // Most recently used last: Map keeps insertion order.
      this.#kept.delete(key);
      this.#kept.set(key, kept);
      return kept;
    }
    const reading = validatedBase64(doc);
    this.#kept.set(key, reading);
    reading.then(
      (text) => this.#keep(key, reading, text.length),
      () => {
        // A refusal is not kept: each envelope of the changed file says so itself.
        if (this.#kept.get(key) === reading) this.#kept.delete(key);
      },
    );
    return reading;
  }

  #keep(key: string, reading: Promise<string>, size: number): void {
    if (this.#kept.get(key) !== reading) return;
    this.#sizes.set(key, size);
    this.#bytes += size;
    for (const [oldest] of this.#kept) {
      if (this.#bytes <= keptBytes || oldest === key) break;
      const oldSize = this.#sizes.get(oldest);
      if (oldSize === undefined) continue; // still being read
      this.#kept.delete(oldest);
      this.#sizes.delete(oldest);
      this.#bytes -= oldSize;
    }
  }
}
