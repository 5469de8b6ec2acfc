/** How much work one conversion may take (renditionOf stops at the first limit with a RenditionError). */
export interface RenditionLimits {
  /** Most pages of the rendition. */
  readonly pages: number;
  /** Most bytes a DOCX's parts may unpack to, together. */
  readonly unpackedBytes: number;
  /** Most parts of a DOCX. */
  readonly zipEntries: number;
  /** Most paragraphs of a DOCX, counted in its XML before it is converted. */
  readonly paragraphs: number;
  /** Most characters of the document's text. */
  readonly characters: number;
  /** Most characters of one word (a run of text without a space or line break). */
  readonly wordCharacters: number;
  /** Most milliseconds of a conversion (checked at every line laid out). */
  readonly milliseconds: number;
  /** The clock `milliseconds` is read on (default Date.now; tests pass one that counts its calls). */
  readonly now?: () => number;
}

/**
 * The defaults: as far as validation reads a PDF's text (2,000 pages, 20 s,
 * src/jobs/limits.ts), and 64 MiB unpacked like a PDF's object streams. A
 * real contract is a few pages; a 25 MB DOCX of text is ~10,000 pages,
 * which is refused rather than laid out. The text limits are what the
 * layout does in a few seconds on a busy machine (BENCHMARKS.md, "Hostile
 * documents"): 2 million characters are ~500 pages of dense text, 20,000
 * paragraphs ~650 pages of one-line ones, and no real word (a long address,
 * a hash) comes near 10,000 characters; past them a document is refused at
 * once, the same way by `validate`, the runner and the sandbox, instead of
 * by whichever clock runs out first.
 */
export const renditionLimits: RenditionLimits = {
  pages: 2000,
  unpackedBytes: 64 * 1024 * 1024,
  zipEntries: 10_000,
  paragraphs: 20_000,
  characters: 2_000_000,
  wordCharacters: 10_000,
  milliseconds: 20_000,
};
