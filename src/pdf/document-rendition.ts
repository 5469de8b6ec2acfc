import { htmlBlocks } from './html-blocks.js';
import { layoutBlocks } from './rendition-layout.js';
import { renditionKindOf } from './rendition-kinds.js';
import { checkTextBudget } from './text-measure.js';
import { plainTextBlocks, type TextBlock } from './text-blocks.js';

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

/**
 * The PDF rendition of a DOCX, HTML or TXT document, as DocuSign makes one
 * when it is sent a document that is not a PDF: its text on US Letter pages
 * (headings, paragraphs and list items, readable and searchable, so anchors
 * are found in it), not its look. Deterministic: the same bytes give the
 * same PDF. Throws RenditionError (SR_DOC_NOT_CONVERTIBLE) when the document
 * cannot be read as its kind or goes past a limit, and a TypeError for an
 * extension it does not convert (ask renditionKindOf first).
 */
export async function renditionOf(
  bytes: Uint8Array,
  extension: string,
  limits: RenditionLimits = renditionLimits,
): Promise<Uint8Array> {
  const now = limits.now ?? Date.now;
  const started = now();
  const kind = renditionKindOf(extension);
  let blocks: TextBlock[];
  if (kind === 'txt') blocks = plainTextBlocks(bytes);
  // HTML is read as UTF-8, as DocuSign's upload expects; a <meta charset> of another encoding is not followed.
  else if (kind === 'html') blocks = htmlBlocks(new TextDecoder('utf-8').decode(bytes));
  else if (kind === 'docx') {
    // Loaded on demand: mammoth and its unzipper are only for DOCX.
    const { docxHtml } = await import('./docx-html.js');
    blocks = htmlBlocks(
      await docxHtml(bytes, {
        unpackedBytes: limits.unpackedBytes,
        entries: limits.zipEntries,
        paragraphs: limits.paragraphs,
      }),
    );
  } else throw new TypeError(`renditionOf does not convert .${extension} documents`);
  checkTextBudget(blocks, limits);
  return layoutBlocks(blocks, { pages: limits.pages, milliseconds: limits.milliseconds, started, now });
}
