/**
 * Which documents get a PDF rendition, by file extension: small and free of
 * the converter's libraries, so that job loading and the runner may ask
 * without loading them.
 */

/** The kinds of document DocuSign converts that signrun renders itself. */
export type RenditionKind = 'docx' | 'html' | 'txt';

const kinds: Readonly<Record<string, RenditionKind>> = { docx: 'docx', html: 'html', htm: 'html', txt: 'txt' };

/** The extensions renditionOf converts (lower case, no dot). */
export const renditionExtensions: readonly string[] = Object.keys(kinds);

/**
 * The kind of a document by its extension (`docx`, `.HTML`, `htm`, `txt`…,
 * any case, with or without the dot), or undefined for a PDF or a kind
 * signrun does not convert.
 */
export function renditionKindOf(extension: string): RenditionKind | undefined {
  const key = extension.replace(/^\./, '').toLowerCase();
  return Object.hasOwn(kinds, key) ? kinds[key] : undefined;
}

/** The extension of a file name or path, lower case without the dot ('' when it has none). */
export function extensionOf(fileName: string): string {
  const base = fileName.slice(Math.max(fileName.lastIndexOf('/'), fileName.lastIndexOf('\\')) + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? base.slice(dot + 1).toLowerCase() : '';
}
