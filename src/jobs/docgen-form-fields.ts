import { readFileSync } from 'node:fs';
import { docGenValueProblem, type DocGenFormField } from '../envelope/docgen-fields.js';
import type { ErrorCode } from '../errors/catalogue.js';
import { didYouMean } from '../errors/did-you-mean.js';
import { mergeFieldsOf, type MergeField } from '../pdf/docx-merge-fields.js';
import type { ResolvedDocGenField } from './model.js';
import type { RawDocGenFields } from './raw-job.js';

/**
 * A document's `docGenFormFields` with `${...}` substituted (by `text`, which
 * turns YAML numbers into DocuSign's strings), each with where it is written.
 */
export function docGenFieldsOf(
  raw: RawDocGenFields,
  text: (value: string | number | undefined) => string | undefined,
): ResolvedDocGenField[] {
  return Object.entries(raw).map(([name, given]): ResolvedDocGenField => {
    if (typeof given !== 'object' || given === null) return { name, value: text(given) ?? '', written: [name] };
    const field: ResolvedDocGenField = { name, written: [name, 'value'] };
    const value = text(given.value);
    if (value !== undefined) field.value = value;
    const type = given.type ?? (given.rowValues !== undefined ? 'TableRow' : undefined);
    if (type !== undefined) field.type = type;
    if (given.format !== undefined) field.format = { ...given.format };
    if (given.rowValues !== undefined) {
      field.rowValues = given.rowValues.map((row) =>
        Object.fromEntries(Object.entries(row).map(([column, v]) => [column, text(v) ?? ''])),
      );
      field.written = [name];
    }
    return field;
  });
}

/** A document's fields as DocuSign's `docGenFormFieldList` takes them. */
export function wireDocGenFields(fields: readonly ResolvedDocGenField[]): DocGenFormField[] {
  return fields.map((f) => {
    const out: DocGenFormField = { name: f.name };
    if (f.type !== undefined) out.type = f.type;
    if (f.value !== undefined) out.value = f.value;
    if (f.format !== undefined) out.format = { ...f.format };
    if (f.rowValues !== undefined)
      out.rowValues = f.rowValues.map((row) => ({
        docGenFormFieldList: Object.entries(row).map(([name, value]) => ({ name, value })),
      }));
    return out;
  });
}

/** A problem of a document's `docGenFormFields`, at a path from the document's `docGenFormFields`. */
export interface DocGenProblem {
  code: ErrorCode;
  message: string;
  at: ReadonlyArray<string | number>;
}

/**
 * What is wrong with the values given for a DOCX's merge fields, as
 * DocuSign would find it when the envelope is sent: a field of the
 * document without a value, or with an empty one (SR_DOCGEN_FIELD_MISSING),
 * a value for a field the document lacks (SR_DOCGEN_FIELD_UNKNOWN), a Date
 * or Number value that is not one (SR_TAB_VALUE_INVALID). A table row's
 * rows must each give its columns; an empty cell of a table is allowed
 * (a row may leave a cell blank).
 */
export function docGenProblems(
  document: string,
  fields: readonly MergeField[],
  given: readonly ResolvedDocGenField[],
): DocGenProblem[] {
  const out: DocGenProblem[] = [];
  const byName = new Map(given.map((g) => [g.name, g]));
  const names = fields.map((f) => f.name);
  const list = names.length > 0 ? names.join(', ') : 'none';
  for (const field of fields) {
    const value = byName.get(field.name);
    if (!value) {
      out.push({
        code: 'SR_DOCGEN_FIELD_MISSING',
        message: `merge field ${field.name} of ${document} has no value in docGenFormFields (its fields: ${list})`,
        at: [],
      });
      continue;
    }
    if (field.kind === 'text') {
      if (value.rowValues !== undefined)
        out.push({
          code: 'SR_TAB_VALUE_INVALID',
          message: `merge field ${field.name} of ${document} is a text, not a table row: give it a value, not rowValues`,
          at: [field.name, 'rowValues'],
        });
      else if ((value.value ?? '').trim() === '')
        out.push({
          code: 'SR_DOCGEN_FIELD_MISSING',
          message: `merge field ${field.name} of ${document} is empty`,
          at: value.written,
        });
      else {
        const problem = docGenValueProblem(value.type, value.value!);
        if (problem)
          out.push({ code: 'SR_TAB_VALUE_INVALID', message: `${field.name}: ${problem}`, at: value.written });
      }
      continue;
    }
    if (value.rowValues === undefined) {
      out.push({
        code: 'SR_DOCGEN_FIELD_MISSING',
        message: `merge field ${field.name} of ${document} is a table row: give its rows in rowValues (columns ${field.columns.join(', ')})`,
        at: value.written,
      });
      continue;
    }
    value.rowValues.forEach((row, i) => {
      for (const column of field.columns)
        if (!(column in row))
          out.push({
            code: 'SR_DOCGEN_FIELD_MISSING',
            message: `row ${i + 1} of table ${field.name} of ${document} has no value for ${column} (its columns: ${field.columns.join(', ')})`,
            at: [field.name, 'rowValues', i],
          });
      for (const column of Object.keys(row))
        if (!field.columns.includes(column))
          out.push({
            code: 'SR_DOCGEN_FIELD_UNKNOWN',
            message: `table ${field.name} of ${document} has no column ${column}${suggestion(column, field.columns)} (its columns: ${field.columns.join(', ')})`,
            at: [field.name, 'rowValues', i, column],
          });
    });
  }
  const known = new Set(names);
  for (const value of given)
    if (!known.has(value.name))
      out.push({
        code: 'SR_DOCGEN_FIELD_UNKNOWN',
        message: `${document} has no merge field ${value.name}${suggestion(value.name, names)} (its fields: ${list})`,
        at: [value.name],
      });
  return out;
}

function suggestion(word: string, candidates: readonly string[]): string {
  const close = didYouMean(word, candidates);
  return close !== undefined ? `; did you mean ${close}?` : '';
}

/** The merge fields of each DOCX read, by real path: a forEach of 10,000 rows over one letter reads it once. */
export type MergeFieldCache = Map<string, MergeField[] | { unreadable: string }>;

/**
 * The problems of one document's `docGenFormFields` (document `shown` as
 * the user names it, `real` its path on disk), reading the DOCX's merge
 * fields once per file. A document that is not a DOCX cannot have them.
 */
export function documentDocGenProblems(
  document: { fileExtension: string; docGenFormFields?: ResolvedDocGenField[] },
  real: string,
  shown: string,
  cache: MergeFieldCache,
): DocGenProblem[] {
  const given = document.docGenFormFields;
  if (given === undefined) return [];
  if (document.fileExtension !== 'docx')
    return [
      {
        code: 'SR_DOCGEN_FIELD_UNKNOWN',
        message: `${shown} is not a DOCX: only a Word document has merge fields (docGenFormFields)`,
        at: [],
      },
    ];
  let fields = cache.get(real);
  if (fields === undefined) {
    try {
      fields = mergeFieldsOf(readFileSync(real));
    } catch (error) {
      fields = { unreadable: (error as Error).message };
    }
    cache.set(real, fields);
  }
  // An unreadable DOCX is reported by the document checks (SR_DOC_NOT_CONVERTIBLE).
  if (!Array.isArray(fields)) return [];
  return docGenProblems(shown, fields, given);
}
