import type { ResolvedDocument } from './model.js';
import { packedMap } from './packed-map.js';

/**
 * One object for each distinct document of a load, and one list for each
 * distinct list of them: the rows of a forEach pattern that send the same
 * files under the same ids and names share them, instead of each row holding
 * its own copies (issue 37: the job model is what grows with the rows).
 * Documents are complete (size, pages, sha256) when they are shared, and
 * nothing changes a resolved envelope's documents afterwards.
 */
export class SharedDocuments {
  readonly #documents = new Map<string, ResolvedDocument>();
  readonly #lists = new Map<string, ResolvedDocument[]>();
  /**
   * Lists of one document whose file no other list names (yet), by its
   * path: nothing can equal them, so their key, a string of seven fields,
   * is made only when a second list names the file (issue 37: a letter a
   * row, keyed for nothing, was 5% of validate's main thread).
   */
  readonly #unkeyed = new Map<string, ResolvedDocument[]>();
  /** The paths whose documents are in the maps by key. */
  readonly #keyed = new Set<string>();

  /** The shared list equal to `documents` (`documents` itself the first time). */
  share(documents: ResolvedDocument[]): ResolvedDocument[] {
    // A Word letter's merge-field values are the row's own (Document
    // Generation): such a list is never shared, or every row would send the
    // first row's salary.
    if (documents.some((d) => d.docGenFormFields !== undefined)) return documents;
    if (documents.length === 1) {
      const path = documents[0]!.path;
      // The first list to name this file: nothing can equal it yet.
      if (!this.#keyed.has(path) && !this.#unkeyed.has(path)) {
        this.#unkeyed.set(path, documents);
        return documents;
      }
      this.#keyPath(path);
      return this.#shareOne(documents);
    }
    for (const d of documents) this.#keyPath(d.path);
    const keys = packedMap(documents, keyOf);
    const listKey = keys.join('\u0001');
    const list = this.#lists.get(listKey);
    if (list) return list;
    const shared = packedMap(documents, (d, i) => {
      const seen = this.#documents.get(keys[i]!);
      if (seen) return seen;
      this.#documents.set(keys[i]!, d);
      return d;
    });
    this.#lists.set(listKey, shared);
    return shared;
  }

  /** Puts the list of one document left unkeyed for `path`, if any, in the maps by key: another list names its file. */
  #keyPath(path: string): void {
    if (this.#keyed.has(path)) return;
    this.#keyed.add(path);
    const first = this.#unkeyed.get(path);
    if (first === undefined) return;
    this.#unkeyed.delete(path);
    this.#shareOne(first);
  }

  /**
   * A list of one document (a letter a row), keyed as {@link share} keys it (the join of one key is that key),
   * without the two lists and the join made to find it (issue 37: one a row, for lists that are rarely shared).
   */
  #shareOne(documents: ResolvedDocument[]): ResolvedDocument[] {
    const key = keyOf(documents[0]!);
    const list = this.#lists.get(key);
    if (list) return list;
    const seen = this.#documents.get(key);
    if (!seen) this.#documents.set(key, documents[0]!);
    const shared = seen ? [seen] : documents;
    this.#lists.set(key, shared);
    return shared;
  }
}

function keyOf(d: ResolvedDocument): string {
  return `${d.documentId}\0${d.name}\0${d.path}\0${d.fileExtension}\0${d.size}\0${d.pageCount}\0${d.sha256}`;
}
