import { anchorFields, positionFields, tabKind, tabValueProblems, type TabFieldType } from '../envelope/index.js';
import type { ErrorCode } from '../errors/catalogue.js';
import type { ResolvedTab } from './model.js';

/** A problem of one tab: its code, its message, and the field it is in (from the tab). */
export interface TabProblem {
  code: ErrorCode;
  message: string;
  at: ReadonlyArray<string | number>;
}

/**
 * What a tab's fields and value must hold once `${...}` is substituted
 * (the schema takes any string, so that a CSV cell may fill them): numbers,
 * booleans, and a value its kind can hold (SR_TAB_VALUE_INVALID).
 */
export function tabProblems(tab: ResolvedTab): TabProblem[] {
  const kind = tabKind(tab.kind);
  const out: TabProblem[] = [];
  const fields = tab.fields ?? {};
  for (const [field, text] of Object.entries(fields)) {
    const problem = fieldProblem(kind.fields[field], text);
    if (problem) out.push({ code: 'SR_SCHEMA_VALUE', message: `${field} ${problem}`, at: [field] });
  }
  tab.listItems?.forEach((item, i) => {
    if (item.selected !== undefined && fieldProblem('boolean', item.selected))
      out.push({
        code: 'SR_SCHEMA_VALUE',
        message: 'selected must be true or false',
        at: ['listItems', i, 'selected'],
      });
  });
  tab.radios?.forEach((radio, i) => {
    for (const [field, text] of Object.entries(radio.fields ?? {})) {
      const type = field === 'font' || field === 'fontSize' ? 'string' : 'boolean';
      const problem = fieldProblem(type, text);
      if (problem) out.push({ code: 'SR_SCHEMA_VALUE', message: `${field} ${problem}`, at: ['radios', i, field] });
    }
  });
  // The place's numbers and flags, the tab's own and each radio's (a radio's documentId is its group's).
  const places: Array<[ResolvedTab['place'], ReadonlyArray<string | number>]> = tab.radios
    ? tab.radios.map((radio, i) => [radio.place, ['radios', i]])
    : [[tab.place, []]];
  for (const [place, at] of places) {
    for (const [field, text] of Object.entries(place ?? {})) {
      if (tab.radios && field === 'documentId') continue;
      const problem = fieldProblem(placeFieldTypes[field], text as string);
      if (problem) out.push({ code: 'SR_SCHEMA_VALUE', message: `${field} ${problem}`, at: [...at, field] });
    }
  }
  const invalid = (message: string, at: ReadonlyArray<string | number>) =>
    out.push({ code: 'SR_TAB_VALUE_INVALID', message, at });

  const selected = (s: string | undefined) => s !== undefined && s.trim().toLowerCase() === 'true';
  if (tab.listItems && tab.listItems.filter((item) => selected(item.selected)).length > 1)
    invalid(`more than one item of list ${label(tab)} is selected`, ['listItems']);
  if (tab.radios) {
    const chosen = tab.radios.filter((radio) => selected(radio.fields?.['selected']));
    if (chosen.length > 1)
      invalid(
        `radios ${chosen.map((r) => JSON.stringify(r.value)).join(' and ')} of group ${fields['groupName'] ?? ''} are both selected; a group has one selection`,
        ['radios'],
      );
  }

  const value = tab.value;
  if (value === undefined || value === '') return out;
  const say = (message: string) => invalid(`${label(tab)}: ${message}`, ['value']);
  if (kind.valueType === 'list' && tab.listItems) {
    const options = tab.listItems.map((item) => item.value ?? item.text);
    if (!options.includes(value) && !tab.listItems.some((item) => item.text === value))
      say(
        `${JSON.stringify(value)} is not an option of the list (${options.map((o) => JSON.stringify(o)).join(', ')})`,
      );
  }
  for (const problem of tabValueProblems(kind, value, fields))
    if (problem.field === 'value') say(problem.message);
    else invalid(problem.message, [problem.field]);
  return out;
}

const INTEGER = /^[+-]?\d+$/;
const placeFieldTypes: Readonly<Record<string, TabFieldType>> = { ...positionFields, ...anchorFields };
function fieldProblem(type: TabFieldType | undefined, text: string): string | undefined {
  const t = text.trim();
  if (type === 'integer' && !INTEGER.test(t)) return `must be a whole number, not ${JSON.stringify(text)}`;
  if (type === 'number' && !/^[+-]?(?:\d+(?:\.\d*)?|\.\d+)$/.test(t))
    return `must be a number, not ${JSON.stringify(text)}`;
  if (type === 'boolean' && !/^(?:true|false)$/i.test(t)) return `must be true or false, not ${JSON.stringify(text)}`;
  return undefined;
}

function label(tab: ResolvedTab): string {
  const name = tab.fields?.['tabLabel'] ?? tab.fields?.['groupName'];
  return name !== undefined ? `${tab.kind} tab ${JSON.stringify(name)}` : `${tab.kind} tab`;
}
