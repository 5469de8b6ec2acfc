import { htmlBlocks } from './html-blocks.js';
import { layoutBlocks } from './rendition-layout.js';
import { renditionKindOf } from './rendition-kinds.js';
import { checkTextBudget } from './text-measure.js';
import { plainTextBlocks, type TextBlock } from './text-blocks.js';
import { renditionLimits, type RenditionLimits } from './rendition-limits.js';

// The limits live in a module of their own: what only needs the numbers (the
// DOCX merge fields of validation) does not load the layout and pdf-lib.
export { renditionLimits, type RenditionLimits } from './rendition-limits.js';

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
