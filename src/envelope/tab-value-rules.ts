/**
 * Which values a tab can hold, decided once: `validate` checks the values a
 * job file prefills with these rules, and the sandbox checks what a signer
 * types with the same ones, so a value signrun lets through is one the
 * signing page accepts and the other way round.
 */
import type { TabKind } from './tab-kinds.js';

/** Why a value does not fit its tab; `field` is the tab field at fault. */
export interface TabValueProblem {
  field: 'value' | 'validationPattern';
  message: string;
}

/** DocuSign's number tabs: digits, thousands separated by commas or not, an optional sign and decimals. */
const NUMBER = /^[+-]?(?:(?:\d+|\d{1,3}(?:,\d{3})+)(?:\.\d+)?|\.\d+)$/;
const WHOLE = /^[+-]?\d+$/;

/**
 * What is wrong with `value` for a tab of `kind` with these fields
 * (`maxLength`, `validationPattern`, as on the wire): not a number, not a
 * date, too long, not matching the pattern, or a pattern that is no regular
 * expression. An empty value is never wrong here (whether it may be empty
 * is the `required` rule's).
 */
export function tabValueProblems(
  kind: TabKind,
  value: string,
  fields: { maxLength?: unknown; validationPattern?: unknown },
): TabValueProblem[] {
  if (value === '') return [];
  const out: TabValueProblem[] = [];
  const say = (message: string) => out.push({ field: 'value', message });
  if (kind.valueType === 'number' && !NUMBER.test(value.trim()))
    say(`${JSON.stringify(value)} is not a number (a ${kind.name} tab holds digits, an optional sign and decimals)`);
  if (kind.valueType === 'date' && !isDate(value.trim()))
    say(`${JSON.stringify(value)} is not a date (write it as 2026-12-01 or 12/1/2026)`);
  const maxLength =
    typeof fields.maxLength === 'string' || typeof fields.maxLength === 'number' ? String(fields.maxLength).trim() : '';
  if (WHOLE.test(maxLength) && Number(maxLength) > 0 && [...value].length > Number(maxLength))
    say(`${JSON.stringify(value)} is ${[...value].length} characters long, more than maxLength ${maxLength}`);
  const pattern = fields.validationPattern;
  if (typeof pattern === 'string' && pattern !== '') {
    let regex: RegExp | undefined;
    try {
      regex = new RegExp(`^(?:${pattern})$`, 'u');
    } catch (error) {
      out.push({
        field: 'validationPattern',
        message: `validationPattern ${JSON.stringify(pattern)} is not a regular expression (${(error as Error).message})`,
      });
    }
    if (regex && !regex.test(value)) say(`${JSON.stringify(value)} does not match validationPattern ${pattern}`);
  }
  return out;
}

/** An ISO 8601 date (2026-12-01, a time may follow) or a US one (12/1/2026), of a day that exists. */
export function isDate(text: string): boolean {
  let y: number, m: number, d: number;
  const iso = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(text);
  const us = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/.exec(text);
  if (iso) [y, m, d] = [Number(iso[1]), Number(iso[2]), Number(iso[3])];
  else if (us) [y, m, d] = [Number(us[3]), Number(us[1]), Number(us[2])];
  else return false;
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}
