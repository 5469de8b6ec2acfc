import path from 'node:path';
import {
  anchorFields,
  positionFields,
  recipientKinds,
  tabKinds,
  recipientsByKind,
  tabsByKind,
  type RecipientKind,
} from '../envelope/index.js';
import type { EnvelopeTemplate, WireRecipient, WireTab } from '../envelope/wire.js';
import type { RawJobFile, RawRecipient, RawTab, RawTemplate } from './raw-job.js';
import { recipientSchemaDefs } from './recipient-schema.js';
import { tabSchemaDefs } from './tab-schema.js';

/** A document of an imported template: where its PDF goes, relative to the job file. */
export interface ImportedDocument {
  documentId: string;
  name: string;
  /** Relative to the job file's folder, with forward slashes (as written in the job file). */
  file: string;
}

/** What {@link templateJobFile} makes of a template. */
export interface TemplateJobFile {
  /** The job file: `version`, `job`, and one `templates:` entry. */
  job: RawJobFile;
  /** The documents to download, in the order of the job file. */
  documents: ImportedDocument[];
  /**
   * What the job file cannot say (a recipient without a role name, a kind
   * of recipient or tab signrun does not model, text that would read as a
   * `${…}` reference): writing the file anyway would lose it at the next
   * run's update, so the import is refused when this is not empty.
   */
  problems: string[];
}

/**
 * A name as a key or job name: lower case ASCII letters and digits joined
 * by `-` (accents dropped), at most 100 characters; `template` when nothing
 * is left. Valid as both (value-rules.ts `KEY`, the schema's job pattern).
 */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100)
    .replace(/-+$/, '');
  return slug === '' ? 'template' : slug;
}

/**
 * The `templates:` entry of a template read from the service (GET
 * …/templates/{templateId}), as `signrun import template` writes it: its
 * texts, its documents as files under `<documentsFolder>/`, its roles by
 * DocuSign's collections with their routing order (when not the default, 1)
 * and fixed person, and each
 * role's tabs with only the fields the job schema accepts for their kind
 * (the schema's own definitions, generated from the catalogues, decide:
 * the ids the service adds, tabId and recipientId, are left out). Values
 * stay DocuSign's strings wherever the schema takes a string (a tab's
 * `"100"`, `"true"`); the fields the schema wants as integers (routingOrder,
 * recipientId, documentId) become numbers. Pure: no call, no file.
 */
export function templateJobFile(
  template: EnvelopeTemplate,
  options: { key: string; job: string; templateId: string; documentsFolder: string },
): TemplateJobFile {
  const problems: string[] = [];
  const text = (where: string, value: unknown): string | undefined => {
    if (typeof value !== 'string' || value === '') return undefined;
    // A job file reads `${…}` as a reference, and has no way to escape it.
    if (value.includes('${')) problems.push(`${where} holds "\${", which a job file would read as a reference`);
    return value;
  };
  const nested = template.envelopeTemplateDefinition;
  const entry: RawTemplate = {
    key: options.key,
    templateId: options.templateId,
    name: text('name', template.name ?? nested?.name) ?? '',
  };
  const description = text('description', template.description ?? nested?.description);
  if (description !== undefined) entry.description = description;
  const emailSubject = text('emailSubject', template.emailSubject);
  if (emailSubject !== undefined) entry.emailSubject = emailSubject;
  const emailBlurb = text('emailBlurb', template.emailBlurb);
  if (emailBlurb !== undefined) entry.emailBlurb = emailBlurb;

  const documents = documentsOf(template, options.documentsFolder, problems);
  if (documents.length > 0)
    entry.documents = documents.map((d, i) => ({
      name: d.name,
      file: d.file,
      // Tabs name their document by id: kept when it is not the default (its place in the list).
      ...(Number(d.documentId) !== i + 1 ? { documentId: Number(d.documentId) } : {}),
    }));

  const recipients = rolesOf(template, problems, text);
  if (Object.keys(recipients).length > 0) entry.recipients = recipients;
  return { job: { version: 1, job: options.job, templates: [entry] }, documents, problems };
}

/** A name as a file name: characters some system refuses in one (and control characters) as `-`. */
function fileSafe(name: string): string {
  return [...name].map((c) => (c < ' ' || '<>:"/\\|?*'.includes(c) ? '-' : c)).join('');
}

function documentsOf(template: EnvelopeTemplate, folder: string, problems: string[]): ImportedDocument[] {
  const taken = new Set<string>();
  const out: ImportedDocument[] = [];
  for (const [i, doc] of (template.documents ?? []).entries()) {
    const documentId = String(doc.documentId ?? '');
    if (!/^[1-9][0-9]{0,8}$/.test(documentId)) {
      problems.push(`documents[${i}] has documentId ${JSON.stringify(documentId)}, not a whole number from 1`);
      continue;
    }
    const name = typeof doc.name === 'string' && doc.name !== '' ? doc.name : `document-${documentId}`;
    // The service hands every document out as a PDF (a DOCX it converted included).
    let base =
      fileSafe(path.basename(name.replace(/\\/g, '/'), path.extname(name)))
        .replace(/^[.\s]+|[.\s]+$/g, '')
        .slice(0, 120) || `document-${documentId}`;
    if (taken.has(base.toLowerCase())) base = `${base}-${documentId}`;
    taken.add(base.toLowerCase());
    out.push({ documentId, name, file: `${folder}/${base}.pdf` });
  }
  return out;
}

/** The properties the job schema gives a `$defs` entry (additionalProperties is false everywhere here). */
function schemaProperties(defs: Record<string, object>, name: string): Set<string> {
  const def = defs[name] as { properties?: Record<string, unknown> } | undefined;
  return new Set(Object.keys(def?.properties ?? {}));
}

let schemaFields:
  | {
      role: Map<string, Set<string>>;
      tab: Map<string, Set<string>>;
      listItem: Set<string>;
      radio: Set<string>;
    }
  | undefined;

/** Which fields the job schema accepts on each role kind and tab kind (read once from its generators). */
function fieldsOfSchema(): NonNullable<typeof schemaFields> {
  if (schemaFields) return schemaFields;
  const recipientDefs = recipientSchemaDefs();
  const tabDefs = tabSchemaDefs();
  schemaFields = {
    role: new Map(recipientKinds.map((k) => [k.name, schemaProperties(recipientDefs, `${k.definition}Role`)])),
    tab: new Map(tabKinds.map((k) => [k.name, schemaProperties(tabDefs, `tab_${k.name}`)])),
    listItem: schemaProperties(tabDefs, 'listItem'),
    radio: schemaProperties(tabDefs, 'radio'),
  };
  return schemaFields;
}

/** Fields a role writes as integers in a job file (DocuSign sends them as strings). */
const integerRoleFields = new Set(['routingOrder', 'recipientId']);
/** Fields of a role that are not copied field by field. */
const roleStructure = new Set(['tabs', 'recipientId', 'accessCode']);
/** A recipient's per-person message, which DocuSign nests in emailNotification. */
const messageFields = ['emailSubject', 'emailBody', 'supportedLanguage'] as const;

function rolesOf(
  template: EnvelopeTemplate,
  problems: string[],
  text: (where: string, value: unknown) => string | undefined,
): Record<string, RawRecipient[]> {
  const fields = fieldsOfSchema();
  const wire = template.recipients ?? {};
  const modelled = new Set<string>(recipientKinds.map((k) => k.collection));
  for (const [collection, list] of Object.entries(wire))
    if (Array.isArray(list) && list.length > 0 && !modelled.has(collection))
      problems.push(`recipients.${collection}: a kind of recipient signrun does not model`);

  const all = recipientsByKind(wire);
  // recipientIds default to 1, 2, … in the job file's order: written only when the template's differ.
  const numbered = all.every(
    ({ recipient }, i) => recipient.recipientId === undefined || recipient.recipientId === String(i + 1),
  );
  const out: Record<string, RawRecipient[]> = {};
  all.forEach(({ kind, recipient }, n) => {
    const where = `recipients.${kind.collection}[${(out[kind.collection] ?? []).length}]`;
    const role = roleOf(kind, recipient, where, fields.role.get(kind.name) ?? new Set(), problems, text);
    if (!numbered) {
      const id = Number(recipient.recipientId ?? n + 1);
      if (Number.isInteger(id) && id >= 1) role.recipientId = id;
      else problems.push(`${where}.recipientId ${JSON.stringify(recipient.recipientId)} is not a whole number from 1`);
    }
    if (recipient.tabs !== undefined && fields.role.get(kind.name)?.has('tabs')) {
      const tabs = tabsOf(recipient.tabs, `${where}.tabs`, problems, text);
      if (Object.keys(tabs).length > 0) role.tabs = tabs;
    }
    (out[kind.collection] ??= []).push(role);
  });
  return out;
}

function roleOf(
  kind: RecipientKind,
  recipient: WireRecipient,
  where: string,
  allowed: Set<string>,
  problems: string[],
  text: (where: string, value: unknown) => string | undefined,
): RawRecipient {
  const roleName = text(`${where}.roleName`, recipient.roleName);
  if (roleName === undefined)
    problems.push(`${where} has no roleName: a template's recipient is a role in a job file (${kind.name})`);
  const role: Record<string, unknown> = { roleName: roleName ?? '' };
  const source = recipient as Record<string, unknown>;
  for (const field of allowed) {
    if (field === 'roleName' || roleStructure.has(field) || (messageFields as readonly string[]).includes(field))
      continue;
    const value = source[field];
    if (integerRoleFields.has(field)) {
      if (value === undefined || value === null || value === '') continue;
      const n = Number(value);
      // Routing order 1 is the default, left out as a person writing the file leaves it out: the digest
      // signrun writes on a template counts a routingOrder written, so a template signrun made re-imports
      // as the very content it was made from.
      if (Number.isInteger(n) && n >= 1) {
        if (field !== 'routingOrder' || n !== 1) role[field] = n;
      } else problems.push(`${where}.${field} ${JSON.stringify(value)} is not a whole number from 1`);
      continue;
    }
    const given = typeof value === 'string' ? text(`${where}.${field}`, value) : value;
    if (given !== undefined && given !== null && given !== '' && typeof given !== 'object') role[field] = given;
  }
  const message = recipient.emailNotification as Record<string, unknown> | undefined;
  for (const field of messageFields) {
    const value = text(`${where}.emailNotification.${field}`, message?.[field]);
    if (value !== undefined && allowed.has(field)) role[field] = value;
  }
  return role;
}

function tabsOf(
  tabs: Readonly<Record<string, unknown>>,
  where: string,
  problems: string[],
  text: (where: string, value: unknown) => string | undefined,
): Record<string, RawTab[]> {
  const fields = fieldsOfSchema();
  const modelled = new Set<string>(tabKinds.map((k) => k.collection));
  for (const [collection, list] of Object.entries(tabs))
    if (Array.isArray(list) && list.length > 0 && !modelled.has(collection))
      problems.push(`${where}.${collection}: a kind of tab signrun does not model`);
  const out: Record<string, RawTab[]> = {};
  for (const { kind, tab } of tabsByKind(tabs)) {
    const at = `${where}.${kind.collection}[${(out[kind.collection] ?? []).length}]`;
    const written = placed(scalarsOf(tab, fields.tab.get(kind.name) ?? new Set(), at, text));
    const source = tab as Record<string, unknown>;
    if (Array.isArray(source['listItems']) && fields.tab.get(kind.name)?.has('listItems'))
      written['listItems'] = (source['listItems'] as unknown[]).map((item, i) =>
        scalarsOf(item as WireTab, fields.listItem, `${at}.listItems[${i}]`, text),
      );
    if (Array.isArray(source['radios']) && fields.tab.get(kind.name)?.has('radios'))
      written['radios'] = (source['radios'] as unknown[]).map((radio, i) =>
        placed(scalarsOf(radio as WireTab, fields.radio, `${at}.radios[${i}]`, text)),
      );
    (out[kind.collection] ??= []).push(written);
  }
  return out;
}

/**
 * One way of placing a tab, as a job file places it: by anchor when the
 * service gives an anchorString (the page and position it may also give are
 * where the anchor was found: the loader would ignore them), else by
 * position (anchor options without an anchor mean nothing).
 */
function placed(tab: Record<string, unknown>): Record<string, unknown> {
  const unused = tab['anchorString'] !== undefined ? positionFields : anchorFields;
  for (const field of Object.keys(unused)) if (field !== 'documentId') delete tab[field];
  return tab;
}

/** A wire object's strings, numbers and booleans among `allowed` (empty strings are the service's "not set"). */
function scalarsOf(
  source: WireTab,
  allowed: Set<string>,
  where: string,
  text: (where: string, value: unknown) => string | undefined,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [field, value] of Object.entries(source as Record<string, unknown>)) {
    if (!allowed.has(field)) continue;
    if (typeof value === 'string') {
      const given = text(`${where}.${field}`, value);
      if (given !== undefined) out[field] = given;
    } else if (typeof value === 'number' || typeof value === 'boolean') out[field] = value;
  }
  return out;
}
