import mammoth from 'mammoth';
import { RenditionError } from './rendition-error.js';
import { paragraphCount } from './docx-paragraphs.js';
import { zipBudgetProblem, type ZipBudget } from './zip-budget.js';

/**
 * The HTML of a DOCX's body, by mammoth: Word's heading styles become h1–h6,
 * lists ul/ol with li, tables tables, and runs their text. Images are left
 * out (the rendition is of the text: mammoth would otherwise inline every
 * image as a data: URI), and so are files the document links to
 * (`externalFileAccess: false`: a DOCX must not make the sandbox read its
 * disk). The zip is checked against `budget`, and its paragraphs counted
 * against `paragraphs`, before mammoth unpacks it.
 */
export async function docxHtml(bytes: Uint8Array, budget: ZipBudget & { paragraphs: number }): Promise<string> {
  const problem = zipBudgetProblem(bytes, budget, paragraphCount(budget.paragraphs));
  if (problem) {
    const limit = problem.kind === 'unreadable' ? undefined : problem.kind;
    throw new RenditionError(`The DOCX cannot be read: ${problem.message}.`, limit);
  }
  let result: { value: string };
  try {
    result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      {
        externalFileAccess: false,
        convertImage: mammoth.images.imgElement(() => Promise.resolve({ src: '' })),
      },
    );
  } catch (error) {
    const why = (error instanceof Error ? error.message : String(error)).split('\n')[0]!.slice(0, 160);
    throw new RenditionError(`The DOCX cannot be read: ${why}.`, undefined, error);
  }
  return result.value;
}
