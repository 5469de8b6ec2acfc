/**
 * DocuSign's Document Generation on the wire: a DOCX sent with
 * `isDocGenDocument: "true"` holds merge fields (`{{Salary}}`), and the
 * envelope carries a value for each (`docGenFormFields`, read and set with
 * GET/PUT /v2.1/accounts/{accountId}/envelopes/{envelopeId}/docGenFormFields).
 * The checked-in Swagger (shared/spec) predates Document Generation; the
 * shapes follow the models of DocuSign's own SDK, docusign-esign 10
 * (`DocGenFormField`, `DocGenFormFields`, `DocGenFormFieldRequest`,
 * `DocGenFormFieldResponse`, `DocGenFormFieldRowValue`, `DocGenFormat`), and
 * what example 42 of DocuSign's code examples sends.
 */
import { isDate } from './tab-value-rules.js';

/** `DocGenFormField.type` as signrun takes it: DocuSign's kinds of a merge field it checks and formats. */
export const docGenFieldTypes = ['TextBox', 'Date', 'Number', 'TableRow'] as const;
export type DocGenFieldType = (typeof docGenFieldTypes)[number];

/** `DocGenFormat`: how a date or number is written into the letter (an ICU-like pattern and a locale). */
export interface DocGenFormat {
  expression?: string;
  locale?: string;
}

/** `DocGenFormField`: one merge field's value (or, a table row, its rows). */
export interface DocGenFormField {
  name: string;
  value?: string;
  type?: string;
  format?: DocGenFormat;
  /** A `TableRow` field: one entry per row of the table, each the row's fields. */
  rowValues?: DocGenFormFieldRowValue[];
  /** In answers: DocuSign says whether the field must have a value. */
  required?: string;
  label?: string;
}

/** `DocGenFormFieldRowValue`: the fields of one row of a table. */
export interface DocGenFormFieldRowValue {
  docGenFormFieldList: DocGenFormField[];
}

/** `DocGenFormFields`: one DocGen document's fields. `documentId` is the document's GUID in the envelope. */
export interface DocGenFormFields {
  documentId: string;
  docGenFormFieldList: DocGenFormField[];
  docGenDocumentStatus?: string;
  docGenErrors?: Array<{ errorCode?: string; message?: string; tagIdentifier?: string }>;
}

/** `DocGenFormFieldRequest` (PUT body) and `DocGenFormFieldResponse` (GET and PUT answer). */
export interface DocGenFormFieldRequest {
  docGenFormFields: DocGenFormFields[];
}

/** DocuSign's number values: digits with an optional sign, thousands commas and decimals. */
const NUMBER = /^[+-]?(?:(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?|\.\d+)$/;

/**
 * Why a value cannot fill a merge field of this type, or undefined: a Date
 * field takes a date (2026-12-01 or 12/1/2026) and a Number field a number,
 * so that the format can write them. An empty value is never wrong here
 * (whether a value is missing is another question).
 */
export function docGenValueProblem(type: string | undefined, value: string): string | undefined {
  const text = value.trim();
  if (text === '') return undefined;
  if (type === 'Number' && !NUMBER.test(text))
    return `${JSON.stringify(value)} is not a number (a Number field holds digits, an optional sign and decimals)`;
  if (type === 'Date' && !isDate(text))
    return `${JSON.stringify(value)} is not a date (write it as 2026-12-01 or 12/1/2026)`;
  return undefined;
}
