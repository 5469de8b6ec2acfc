import { docusignFields, type DocusignObject } from '../envelope/docusign-fields.js';
import { recipientKind } from '../envelope/recipient-kinds.js';
import { shorthandTabKind, tabKind } from '../envelope/tab-kinds.js';
import { readFileSync } from 'node:fs';
import type { ErrorObject } from 'ajv';
import type { ErrorCode } from '../errors/catalogue.js';
import { didYouMean } from '../errors/did-you-mean.js';
import type { NodePath } from './job-yaml.js';
import { reservedCustomFieldProblem } from './value-rules.js';
import type { AccountEntryKind } from './account-entries/account-entry-kind.js';
import { withAccountEntries } from './account-entries/account-entry-schema.js';

/** One schema violation, before it gets a position. */
export interface SchemaProblem {
  code: ErrorCode;
  message: string;
  /** Path of the offending value (or of the object missing a field). */
  path: NodePath;
  /** Point at the key rather than the value (unknown properties). */
  at: 'value' | 'key';
  /** Dotted field name for people, e.g. envelopes[0].recipients[1].email. */
  field: string;
  /** What to do, when the code's own hint does not fit this case. */
  hint?: string;
}

type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
let validator: Promise<Validator> | undefined;

/** Compiled ahead of time from schemas/job.schema.json (see compile-job-schema.ts); beside it in src/ and dist/ alike. */
function compiledValidator(): Promise<Validator> {
  validator ??= import(new URL('../../schemas/job.schema.validator.mjs', import.meta.url).href).then(
    (module: { validate: Validator }) => module.validate,
  );
  return validator;
}

/**
 * How ajv compiles the job schema, ahead of time (compile-job-schema.ts) and
 * at run time alike, so that both validators report the same problems.
 * inlineRefs: false: a $ref'd definition (a tab field shared by 27 kinds) is
 * compiled once, not into each kind.
 */
export const jobSchemaAjvOptions = { allErrors: true, verbose: true, strict: false, inlineRefs: false } as const;

/** Validators compiled at run time, for lists of account entry kinds the checked-in schema was not generated from. */
const compiledFor = new WeakMap<readonly AccountEntryKind[], Promise<Validator>>();

/**
 * The validator: the compiled one, whose schema has the catalogue's account
 * entry kinds (generated into it: a test fails when it is stale), or, given
 * kinds it lacks, the schema with their fields compiled now (a kind of a
 * test's own; 0.2–0.5 s, once per list).
 */
function validatorFor(kinds: readonly AccountEntryKind[] | undefined): Promise<Validator> {
  if (!kinds) return compiledValidator();
  let compiled = compiledFor.get(kinds);
  if (!compiled) {
    compiled = import('ajv').then(({ Ajv }) => {
      const schema = withAccountEntries(jobSchema() as { $defs: Record<string, unknown> }, kinds);
      return new Ajv(jobSchemaAjvOptions).compile(schema);
    });
    compiledFor.set(kinds, compiled);
  }
  return compiled;
}

/** The checked-in schema, read from schemas/ (next to src/ and dist/ alike). */
export function jobSchema(): Record<string, unknown> {
  return JSON.parse(readFileSync(new URL('../../schemas/job.schema.json', import.meta.url), 'utf8')) as Record<
    string,
    unknown
  >;
}

/**
 * Validates a parsed job file against schemas/job.schema.json and turns ajv's
 * error list into one problem per place: ajv reports a bad value several
 * times over (each keyword, each branch); people need it once, with a
 * "did you mean" for typos (as better-ajv-errors does).
 */
export async function checkJobSchema(
  value: unknown,
  /** Account entry kinds the checked-in schema lacks, with the catalogue's (loadJobs' `accountEntries`). */
  kinds?: readonly AccountEntryKind[],
): Promise<SchemaProblem[]> {
  const compiled = await validatorFor(kinds);
  if (compiled(value)) return [];
  const problems: SchemaProblem[] = [];
  const seen = new Set<string>();
  for (const error of compiled.errors ?? []) {
    const problem = toProblem(error, value);
    if (!problem) continue;
    const id = `${problem.field}|${problem.code}`;
    if (seen.has(id)) continue;
    seen.add(id);
    problems.push(problem);
  }
  // A type error on a field makes the other complaints about it noise; so does the
  // `${row.*}` branch of a value that may also come from a CSV cell (status): the
  // list of values says what to write.
  const typed = new Set(problems.filter((p) => p.code === 'SR_SCHEMA_TYPE').map((p) => p.field));
  const listed = new Set(problems.filter((p) => p.code === 'SR_SCHEMA_ENUM').map((p) => p.field));
  // A tab of the list form with a field of the object form (an anchor, a label) was meant as one of
  // those: the list form's positions it lacks are noise beside the problem that says so.
  const meantObjectForm = new Set(
    problems
      .filter((p) => p.code === 'SR_SCHEMA_UNKNOWN_PROPERTY' && meansObjectFormTab(p.path))
      .map((p) => fieldName(p.path.slice(0, -1))),
  );
  return problems.filter(
    (p) =>
      p.code === 'SR_SCHEMA_TYPE' ||
      (!typed.has(p.field) &&
        !(p.code === 'SR_SCHEMA_VALUE' && listed.has(p.field) && p.message.includes('{row')) &&
        !(p.code === 'SR_SCHEMA_REQUIRED' && meantObjectForm.has(fieldName(p.path)))),
  );
}

/** A tab of the list form of `tabs` (signrun's shorthand: sign-here tabs placed by position): [..., 'tabs', i]. */
function isListFormTab(path: NodePath): boolean {
  return typeof path[path.length - 1] === 'number' && path[path.length - 2] === 'tabs';
}

/** A tab's kind, as other tools name it: in a job file, the collection the tab is listed under. */
const tabKindFields = new Set(['type', 'tabType', 'kind']);

let objectFormFields: Map<string, string[]> | undefined;
/**
 * Which of DocuSign's tab collections of the object form of `tabs` take a
 * field (`anchorString`: all; `value`: those with a value), read from the
 * job schema's `tabsObject` once, when a job file needs it.
 */
function collectionsTaking(field: string): string[] {
  if (!objectFormFields) {
    objectFormFields = new Map();
    const defs = jobSchema()['$defs'] as Record<string, { properties?: Record<string, { items?: { $ref?: string } }> }>;
    for (const [collection, list] of Object.entries(defs['tabsObject']?.properties ?? {})) {
      const tab = defs[list.items?.$ref?.split('/').pop() ?? ''];
      for (const name of Object.keys(tab?.properties ?? {}))
        objectFormFields.set(name, [...(objectFormFields.get(name) ?? []), collection]);
    }
  }
  return objectFormFields.get(field) ?? [];
}

/** An unknown field of a list-form tab that belongs to the object form (or names a tab's kind). */
function meansObjectFormTab(fieldPath: NodePath): boolean {
  const field = String(fieldPath[fieldPath.length - 1]);
  return isListFormTab(fieldPath.slice(0, -1)) && (tabKindFields.has(field) || collectionsTaking(field).length > 0);
}

/**
 * A field of the object form of tabs (an anchor, a label) or a tab's kind in
 * a tab of the list form, which takes sign-here tabs by position only: the
 * user meant the object form.
 */
function objectFormTabProblem(path: NodePath, field: string, extra: string, known: string[]): SchemaProblem {
  const where = field ? ` in ${field}` : '';
  const kind = tabKindFields.has(extra);
  const signHere = tabKind(shorthandTabKind).collection;
  const collection = kind ? signHere : (collectionsTaking(extra)[0] ?? signHere);
  return {
    code: 'SR_SCHEMA_UNKNOWN_PROPERTY',
    message: `"${extra}"${where}: a list of tabs is signrun's shorthand for sign-here tabs placed by position (${known.join(', ')}); ${kind ? "a tab's kind is the collection it is listed under, in the object form of tabs" : `"${extra}" is taken by the object form of tabs, keyed by DocuSign's tab collections`}`,
    path: [...path, extra],
    at: 'key',
    field: joinField(field, extra),
    hint: `Write this recipient's tabs as an object, e.g. tabs: { ${collection}: [{ ${kind ? 'anchorString: "Signature:"' : `${extra}: …`} }], ${tabKind('text').collection}: [ … ] }; docs/job-files.md lists the collections and what each tab takes.`,
  };
}

/** The DocuSign object a path of the job file is (by where it is: a recipient, a tab, a document…). */
function docusignObjectOf(path: NodePath): DocusignObject | undefined {
  const at = (i: number) => path[path.length - i];
  const indexed = typeof at(1) === 'number';
  // [..., list, i] or [..., list, collection, i] (the object forms of recipients and tabs).
  const list = indexed ? (typeof at(2) === 'string' && typeof at(3) === 'string' ? at(3) : at(2)) : undefined;
  if (indexed) {
    if (list === 'tabs') return 'tab';
    if (at(2) === 'listItems') return 'listItem';
    if (at(2) === 'radios') return 'radio';
    if (list === 'recipients') return 'recipient';
    if (at(2) === 'templateRoles') return 'templateRole';
    if (at(2) === 'documents') return 'document';
    if (at(2) === 'envelopes' && path.length === 2) return 'envelope';
    return undefined;
  }
  if (at(1) === 'tabs') return 'tabs';
  if (at(1) === 'recipients') return 'recipients';
  if (path.length === 1 && at(1) === 'defaults') return 'envelope';
  return undefined;
}

/** A field the schema does not have there: a typo (with the closest field), DocuSign's name for what signrun does not take yet, or the object form of tabs meant. */
function unknownFieldProblem(error: ErrorObject, path: NodePath, field: string): SchemaProblem {
  const params = error.params as Record<string, unknown>;
  const extra = String(params['additionalProperty']);
  const known = Object.keys((error.parentSchema as { properties?: object } | undefined)?.properties ?? {});
  const where = field ? ` in ${field}` : '';
  if (meansObjectFormTab([...path, extra])) return objectFormTabProblem(path, field, extra, known);
  // DocuSign's own name for something signrun does not take yet is no typo: say so, and what it takes.
  const object = docusignObjectOf(path);
  if (object !== undefined && (docusignFields[object] as readonly string[]).includes(extra))
    return {
      code: 'SR_SCHEMA_UNKNOWN_PROPERTY',
      message: `"${extra}"${where} is a DocuSign field that signrun does not take in job files yet; the fields it takes here: ${known.join(', ')}`,
      path: [...path, extra],
      at: 'key',
      field: joinField(field, extra),
      hint: `Remove "${extra}", or say what it should do in an issue; ${extra === 'recipientType' ? `a recipient’s kind is the collection it is listed under (recipients: { ${recipientKind('signer').collection}: […], ${recipientKind('carbonCopy').collection}: […] }), ` : ''}docs/job-files.md lists what each object takes.`,
    };
  const suggestion = didYouMean(extra, known);
  return {
    code: 'SR_SCHEMA_UNKNOWN_PROPERTY',
    message: `unknown field "${extra}"${where}${suggestion ? `; did you mean "${suggestion}"?` : known.length ? `; known fields: ${known.join(', ')}` : ''}`,
    path: [...path, extra],
    at: 'key',
    field: joinField(field, extra),
  };
}

function toProblem(error: ErrorObject, root: unknown): SchemaProblem | undefined {
  const path = pointerToPath(error.instancePath, root);
  const field = fieldName(path);
  const name = field || 'the job file';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    // "must match the then/else schema": the branch's own errors say what is wrong, and where.
    case 'if':
      return undefined;
    case 'required': {
      const missing = String(params['missingProperty']);
      return {
        code: 'SR_SCHEMA_REQUIRED',
        message: `${name} needs the field "${missing}"`,
        path,
        at: 'value',
        field: joinField(field, missing),
      };
    }
    case 'additionalProperties':
      return unknownFieldProblem(error, path, field);
    case 'type':
      return {
        code: 'SR_SCHEMA_TYPE',
        message: `${name} must be ${article(String(params['type']))}, not ${describe(error.data)}`,
        path,
        at: 'value',
        field,
      };
    case 'enum': {
      const allowed = (params['allowedValues'] as unknown[]).map(String);
      const suggestion = typeof error.data === 'string' ? didYouMean(error.data, allowed) : undefined;
      return {
        code: 'SR_SCHEMA_ENUM',
        message: `${name} is ${JSON.stringify(error.data)}; it must be one of ${allowed.join(', ')}${suggestion ? ` (did you mean "${suggestion}"?)` : ''}`,
        path,
        at: 'value',
        field,
      };
    }
    case 'const':
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} must be ${JSON.stringify(params['allowedValue'])}, not ${JSON.stringify(error.data)}`,
        path,
        at: 'value',
        field,
      };
    case 'minProperties':
    case 'maxProperties':
      if (path[path.length - 1] === 'forEach')
        return {
          code: 'SR_SCHEMA_VALUE',
          message: 'forEach takes exactly one of "csv" or "items"',
          path,
          at: 'value',
          field,
        };
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} ${error.message ?? 'is not valid'}`,
        path,
        at: 'value',
        field,
      };
    case 'minItems':
      return { code: 'SR_SCHEMA_VALUE', message: `${name} must not be an empty list`, path, at: 'value', field };
    case 'minLength':
      return {
        code: 'SR_SCHEMA_VALUE',
        message:
          params['limit'] === 1
            ? `${name} must not be empty`
            : `${name} must be at least ${String(params['limit'])} characters long`,
        path,
        at: 'value',
        field,
      };
    case 'maxLength':
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} must be at most ${String(params['limit'])} characters long`,
        path,
        at: 'value',
        field,
      };
    case 'minimum':
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} is ${String(error.data)}; it must be at least ${String(params['limit'])}`,
        path,
        at: 'value',
        field,
      };
    case 'not':
      if (/(^|\.)customFields\[\d+\]\.name$/.test(field))
        return {
          code: 'SR_CUSTOM_FIELD_RESERVED',
          message: reservedCustomFieldProblem(String(error.data)) ?? `${name} is reserved`,
          path,
          at: 'value',
          field,
        };
      return { code: 'SR_SCHEMA_VALUE', message: `${name} is not allowed here`, path, at: 'value', field };
    case 'pattern':
      if (field === 'job')
        return {
          code: 'SR_SCHEMA_VALUE',
          message: 'job must be letters, digits, ".", "_" or "-", starting with a letter or digit',
          path,
          at: 'value',
          field,
        };
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} does not match ${String(params['pattern'])}`,
        path,
        at: 'value',
        field,
      };
    default:
      return {
        code: 'SR_SCHEMA_VALUE',
        message: `${name} ${error.message ?? 'is not valid'}`,
        path,
        at: 'value',
        field,
      };
  }
}

function pointerToPath(pointer: string, root: unknown): Array<string | number> {
  if (pointer === '') return [];
  const path: Array<string | number> = [];
  let node = root;
  for (const raw of pointer.slice(1).split('/')) {
    const segment = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      path.push(Number(segment));
      node = node[Number(segment)];
    } else {
      path.push(segment);
      node = (node as Record<string, unknown> | undefined)?.[segment];
    }
  }
  return path;
}

/** `envelopes[0].recipients[1].email` */
export function fieldName(path: NodePath): string {
  let out = '';
  for (const segment of path)
    out += typeof segment === 'number' ? `[${segment}]` : out === '' ? segment : `.${segment}`;
  return out;
}

function joinField(parent: string, child: string): string {
  return parent ? `${parent}.${child}` : child;
}

function article(type: string): string {
  const words: Record<string, string> = {
    object: 'a mapping',
    array: 'a list',
    string: 'text',
    integer: 'a whole number',
    number: 'a number',
    boolean: 'true or false',
    null: 'empty',
  };
  return type
    .split(',')
    .map((t) => words[t] ?? t)
    .join(' or ');
}

function describe(value: unknown): string {
  if (value === null || value === undefined) return 'empty';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'object') return 'a mapping';
  if (typeof value === 'string') return `text ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${JSON.stringify(value) ?? ''}`;
}
