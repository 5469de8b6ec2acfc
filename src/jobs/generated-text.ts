import { readFileSync } from 'node:fs';
import { readDocumentText, type DocumentText } from './document-text.js';
import { wireDocGenFields } from './docgen-form-fields.js';
import type { ResolvedDocument } from './model.js';

/**
 * The key under which a document's text is read for anchors: its path, and
 * for a Word template with merge values (DocuSign's Document Generation)
 * the values too, since DocuSign looks for anchors in the letter it
 * generates, whose lines move with the values. Rows with the same values
 * share one reading.
 */
export function textKeyOf(document: Pick<ResolvedDocument, 'path' | 'docGenFormFields'>): string {
  if (document.docGenFormFields === undefined) return document.path;
  return `${document.path}\0${JSON.stringify(wireDocGenFields(document.docGenFormFields))}`;
}

/**
 * The text of the letter DocuSign generates from a DOCX and its merge
 * values: the DOCX merged (src/pdf/docx-merge.ts), then its PDF rendition
 * read as any converted document's is (src/jobs/document-text.ts).
 */
export async function readGeneratedText(
  document: Pick<ResolvedDocument, 'path' | 'docGenFormFields'>,
  real: string,
): Promise<DocumentText> {
  // Loaded on demand: the merge is for Word letters only.
  const { mergeDocx } = await import('../pdf/docx-merge.js');
  return readDocumentText(real, () => {
    const merged = mergeDocx(readFileSync(real), wireDocGenFields(document.docGenFormFields ?? []));
    return Buffer.from(merged.buffer, merged.byteOffset, merged.byteLength);
  });
}
