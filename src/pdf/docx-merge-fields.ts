import { createRequire } from 'node:module';
import type * as Fflate from 'fflate';
import { renditionLimits } from './rendition-limits.js';
import { paragraphsOf, tagsOf } from './docx-tags.js';
import { RenditionError } from './rendition-error.js';
import { zipBudgetProblem, type ZipBudget } from './zip-budget.js';

/**
 * A merge field of a DocGen DOCX, as DocuSign lists it in the envelope's
 * docGenFormFields: a text field (`{{Salary}}`), or a table row
 * (`{{t:"TableRow", e:"Compensation_Package"}}`) whose cells' fields are its
 * columns, given once per row through `rowValues`.
 */
export interface MergeField {
  name: string;
  kind: 'text' | 'tableRow';
  /** A table row's fields, in order of appearance (empty for a text field). */
  columns: string[];
}

/**
 * fflate, loaded the first time a DOCX is unpacked: importing it builds its
 * inflate tables at once (20–60 ms of CPU), and every `validate` and `run`
 * loads this module, while few jobs have a Word letter (issue 37: start-up).
 */
let fflate: typeof Fflate | undefined;
const zip = (): typeof Fflate => (fflate ??= createRequire(import.meta.url)('fflate') as typeof Fflate);

/** The parts of a DOCX whose text DocuSign merges: the body, headers, footers, footnotes and endnotes. */
export const MERGED_PART = /^word\/(?:document|header\d*|footer\d*|footnotes|endnotes)\.xml$/;

/** The budget a DOCX is held to before it is unpacked: the rendition's (src/pdf/document-rendition.ts). */
export const docxBudget: ZipBudget = {
  unpackedBytes: renditionLimits.unpackedBytes,
  entries: renditionLimits.zipEntries,
};

/**
 * The merged parts of a DOCX, unpacked (after the zip is checked against the
 * budget, so that a small file cannot unpack to gigabytes). Throws
 * RenditionError (SR_DOC_NOT_CONVERTIBLE) for a DOCX that cannot be read.
 */
export function mergedParts(bytes: Uint8Array, budget: ZipBudget = docxBudget): Map<string, string> {
  const problem = zipBudgetProblem(bytes, budget);
  if (problem)
    throw new RenditionError(
      `The DOCX cannot be read: ${problem.message}.`,
      problem.kind === 'unreadable' ? undefined : problem.kind,
    );
  let files: Record<string, Uint8Array>;
  try {
    files = zip().unzipSync(bytes, { filter: (file) => MERGED_PART.test(file.name) });
  } catch (error) {
    throw new RenditionError(`The DOCX cannot be read: ${(error as Error).message}.`, undefined, error);
  }
  if (!files['word/document.xml']) throw new RenditionError('The DOCX cannot be read: it has no word/document.xml.');
  return new Map(
    Object.entries(files)
      .sort(([a], [b]) => partOrder(a) - partOrder(b) || a.localeCompare(b))
      .map(([name, data]) => [name, zip().strFromU8(data)]),
  );
}

/** The body first, then headers, footers and notes: the order DocuSign lists fields in follows the document. */
function partOrder(name: string): number {
  return name === 'word/document.xml' ? 0 : 1;
}

/**
 * The merge fields of a DocGen DOCX, each once, in order of first
 * appearance: text fields and table rows with their columns. Conditions
 * (`{{if …}}`, `{{endif}}`) are no fields, nor is any tag DocuSign's syntax
 * does not make a field of. A field split by Word across runs is found
 * (src/pdf/docx-tags.ts).
 */
export function mergeFieldsOf(bytes: Uint8Array, budget: ZipBudget = docxBudget): MergeField[] {
  const fields = new Map<string, MergeField>();
  for (const xml of mergedParts(bytes, budget).values()) {
    const tags = tagsOf(paragraphsOf(xml));
    // A table row's fields are the fields of the paragraphs of its <w:tr>: the rows are known first, the fields kept in document order.
    const rows = new Map<number, string>();
    for (const tag of tags)
      if (tag.meaning.kind === 'tableRow' && tag.paragraph.row) rows.set(tag.paragraph.row.start, tag.meaning.name);
    for (const tag of tags) {
      const rowName = tag.paragraph.row ? rows.get(tag.paragraph.row.start) : undefined;
      if (rowName !== undefined && !fields.has(rowName))
        fields.set(rowName, { name: rowName, kind: 'tableRow', columns: [] });
      if (tag.meaning.kind !== 'field') continue;
      const name = tag.meaning.name;
      const table = rowName !== undefined ? fields.get(rowName) : undefined;
      if (table) {
        if (!table.columns.includes(name)) table.columns.push(name);
      } else if (!fields.has(name)) fields.set(name, { name, kind: 'text', columns: [] });
    }
  }
  return [...fields.values()];
}
