import { basename, resolve } from 'node:path';
import { extensionOf, renditionKindOf } from '../pdf/rendition-kinds.js';
import type { Place } from './diagnostic-sink.js';
import type { Row } from './envelope-rows.js';
import { placeOf, type JobContext } from './job-context.js';
import type { NodePath } from './job-yaml.js';
import { shorthandRecipientKind, tabKind, type TabKindName } from '../envelope/index.js';
import type {
  ItemCollection,
  ResolvedEnvelope,
  ResolvedListItem,
  ResolvedNotification,
  ResolvedRadio,
  ResolvedRecipient,
  ResolvedTab,
  TabAnchor,
  TemplateRef,
} from './model.js';
import type { RawEnvelope, RawEnvelopeDefaults, RawNotification, RawPlace, RawRadio, RawTab } from './raw-job.js';
import { packedMap } from './packed-map.js';
import { writtenTabs } from './written-tabs.js';
import { writtenRecipients } from './written-recipients.js';
import { makeSecret } from '../secret.js';
import { findReferences, substituteReferences } from './references.js';
import { docGenFieldsOf } from './docgen-form-fields.js';

/** What expanding an envelope reads of its job file's context (a streamed row is expanded again with it: row-envelope.ts). */
export type ExpandContext = Pick<JobContext, 'env' | 'folder' | 'file' | 'shown' | 'locator'>;

/** An envelope after substitution, before its documents are read. */
export interface ExpandedEnvelope {
  /** `envelopes`, or `templates` for a template's documents and roles (resolved by the same code). */
  collection: ItemCollection;
  /** Index of the envelope (pattern) in the job file's `envelopes` (or of the template in `templates`). */
  index: number;
  envelope: Omit<ResolvedEnvelope, 'digest'>;
  /** Where a field of this envelope comes from: the CSV cell when it used `${row.*}`, else the job file. */
  placeOf(path: NodePath): Place;
}

/**
 * One envelope of a pattern (or a plain envelope): defaults applied,
 * `${row.*}`/`${env.*}` substituted, documentId/recipientId numbered in order.
 * References were checked before, so every one resolves.
 */
export function expandEnvelope(
  raw: RawEnvelope,
  index: number,
  defaults: RawEnvelopeDefaults,
  row: Row | undefined,
  job: string,
  ctx: ExpandContext,
  collection: ItemCollection = 'envelopes',
): ExpandedEnvelope {
  const sub = (value: string): string =>
    substituteReferences(value, (kind, name) => (kind === 'row' ? (row?.values[name] ?? '') : (ctx.env(name) ?? '')));
  const opt = (value: string | undefined): string | undefined => (value === undefined ? undefined : sub(value));
  // Numbers and booleans (YAML values) hold no reference: only strings are substituted.
  const text = (value: string | number | boolean | null | undefined): string | undefined =>
    value === undefined || value === null ? undefined : typeof value === 'string' ? sub(value) : String(value);
  const definition = collection === 'templates';

  const shared = sharedOf(raw, index, ctx, collection);
  // Documents that no row changes are one list for every row of the pattern (issue 37): a list and
  // two objects a row were made, held through their chunk's checks, and dropped for the shared ones.
  let documents = shared.documents;
  if (!documents) {
    documents = packedMap(raw.documents ?? [], (d, i) => {
      const file = sub(d.file);
      let path = shared.paths.get(file);
      if (path === undefined) {
        path = resolve(ctx.folder, file);
        shared.paths.set(file, path);
      }
      return {
        documentId: String(d.documentId ?? i + 1),
        name: d.name !== undefined ? sub(d.name) : basename(file),
        path,
        fileExtension: renditionKindOf(extensionOf(path)) ? extensionOf(path) : 'pdf',
        size: 0,
        pageCount: 0,
        sha256: '',
        ...(d.docGenFormFields !== undefined ? { docGenFormFields: docGenFieldsOf(d.docGenFormFields, text) } : {}),
      };
    });
    if (shared.documents === undefined) shared.documents = sameForEveryRow(raw) ? documents : null;
  }
  const values: RowValues = { sub, text, firstDocumentId: documents[0]?.documentId ?? '1' };
  const eventNotification = raw.eventNotification ?? defaults.eventNotification;
  const customFields = raw.customFields ?? defaults.customFields;
  const returnUrl = opt(raw.returnUrl ?? defaults.returnUrl);
  const emailBlurb = opt(raw.emailBlurb ?? defaults.emailBlurb);
  // The envelope's own brand (by id or by name) replaces the defaults' (by id or by name).
  const ownBrand = raw.brandId !== undefined || raw.brand !== undefined;
  const brandId = opt(ownBrand ? raw.brandId : defaults.brandId);
  const brandName = opt(ownBrand ? raw.brand : defaults.brand);
  const voidedReason = opt(raw.voidedReason ?? defaults.voidedReason);
  const notification = notificationOf(raw.notification ?? defaults.notification);

  // The fields in this order: the envelope's digest is of this object as written.
  const envelope: Omit<ResolvedEnvelope, 'digest'> = {
    job,
    key: sub(raw.key),
    source: shared.source,
    ...(row ? { row: row.number, rowSource: row.place } : {}),
    ...(raw.bulkSend === true ? { bulkSend: true as const } : {}),
    emailSubject: sub(raw.emailSubject ?? defaults.emailSubject ?? ''),
    ...(emailBlurb !== undefined ? { emailBlurb } : {}),
    ...(brandId !== undefined ? { brandId } : {}),
    ...(brandName !== undefined ? { brandName } : {}),
    // A `${row.*}` status is the row's cell (checked by resolve-envelopes.ts); an empty cell is the default.
    status: (sub(raw.status ?? defaults.status ?? 'sent') || 'sent') as ResolvedEnvelope['status'],
    ...(voidedReason !== undefined ? { voidedReason: sub(voidedReason) } : {}),
    ...(notification ? { notification } : {}),
    ...(returnUrl !== undefined ? { returnUrl } : {}),
    ...(eventNotification ? { eventNotification: { ...eventNotification, url: sub(eventNotification.url) } } : {}),
    ...(customFields
      ? { customFields: packedMap(customFields, (f) => ({ name: sub(f.name), value: sub(f.value) })) }
      : {}),
    kind: definition
      ? 'documents'
      : raw.templates !== undefined
        ? 'composite'
        : raw.templateId !== undefined || raw.template !== undefined
          ? 'template'
          : 'documents',
    ...(raw.templates !== undefined && !definition
      ? { templateRefs: raw.templates.map((ref) => templateRefOf(sub(ref))) }
      : {}),
    documents,
    recipients: packedMap(writtenRecipients(raw.recipients), (written, i) => expandRecipient(written, i, values)),
    ...(raw.templateId !== undefined && !definition ? { templateId: sub(raw.templateId) } : {}),
    ...(raw.template !== undefined && !definition ? { templateKey: sub(raw.template) } : {}),
    templateRoles: raw.templateRoles?.length
      ? packedMap(raw.templateRoles, (r, i) => expandRole(r, i, values))
      : none(),
  };

  return {
    collection,
    index,
    envelope,
    placeOf: (path) => writtenPlaceOf(path, raw, defaults, row, ctx, [collection, index]),
  };
}

/** One row's substitution of `${row.*}` and `${env.*}`, and the document a tab without one goes on. */
interface RowValues {
  sub: (value: string) => string;
  text: (value: string | number | boolean | null | undefined) => string | undefined;
  /** The envelope's first document: a tab names no other, it is there. */
  firstDocumentId: string;
}

type WrittenRecipient = ReturnType<typeof writtenRecipients>[number];
type RawTemplateRole = NonNullable<RawEnvelope['templateRoles']>[number];

function expandRecipient(
  { kind, recipient: r, written }: WrittenRecipient,
  i: number,
  v: RowValues,
): ResolvedRecipient {
  const { sub, text } = v;
  const host = kind.needsHost ? { name: sub(r.hostName ?? ''), email: sub(r.hostEmail ?? '') } : undefined;
  const recipient: ResolvedRecipient = {
    kind: kind.name,
    recipientId: String(r.recipientId ?? i + 1),
    // An in-person signer is the person who signs; messages go to the host.
    name: sub((host ? r.signerName : r.name) ?? ''),
    email: host ? host.email : sub(r.email ?? ''),
    tabs: tabsOf(writtenTabs(r.tabs), v),
    written,
  };
  if (host) recipient.host = host;
  if (r.roleName !== undefined) recipient.roleName = sub(r.roleName);
  if (r.signerEmail !== undefined) recipient.signerEmail = sub(r.signerEmail);
  if (r.witnessFor !== undefined) recipient.witnessFor = text(r.witnessFor)!;
  if (r.clientUserId !== undefined) recipient.clientUserId = sub(r.clientUserId);
  if (r.routingOrder !== undefined) recipient.routingOrder = String(r.routingOrder);
  if (r.supportedLanguage !== undefined) recipient.supportedLanguage = sub(r.supportedLanguage);
  if (r.emailSubject !== undefined) recipient.emailSubject = sub(r.emailSubject);
  if (r.emailBody !== undefined) recipient.emailBody = sub(r.emailBody);
  if (r.note !== undefined) recipient.note = sub(r.note);
  if (r.accessCode !== undefined) recipient.accessCode = makeSecret(sub(r.accessCode));
  return recipient;
}

function expandRole(r: RawTemplateRole, i: number, v: RowValues): ResolvedRecipient {
  const { sub } = v;
  const role: ResolvedRecipient = {
    kind: shorthandRecipientKind,
    roleName: sub(r.roleName),
    name: sub(r.name),
    email: sub(r.email),
    tabs: tabsOf(writtenTabs(r.tabs), v, true),
    written: roleWritten(i),
  };
  if (r.clientUserId !== undefined) role.clientUserId = sub(r.clientUserId);
  if (r.routingOrder !== undefined) role.routingOrder = String(r.routingOrder);
  return role;
}

/**
 * One empty list for every envelope's recipient without tabs (and envelope
 * without template roles): 100,000 rows held 300,000 empty arrays (issue 37).
 * Frozen: nothing adds to a resolved envelope's lists, and should anything
 * try, it fails rather than adds to every envelope's.
 */
const emptyList: readonly never[] = Object.freeze([]);
function none<T>(): T[] {
  return emptyList as unknown as T[];
}

function tabsOf(written: ReturnType<typeof writtenTabs>, v: RowValues, role = false): ResolvedTab[] {
  if (written.length === 0) return none();
  return packedMap(written, ({ kind, tab, written: at }) => resolvedTab(kind.name, tab, at, v, role));
}

/** A place with `${...}` substituted: by anchor, else by position (unless `optional`, a role's tab filled by label). */
function tabPlace(
  tab: RawPlace,
  documentId: string | undefined,
  optional: boolean,
  v: RowValues,
): ResolvedTab['place'] {
  const { sub, text } = v;
  if (tab.anchorString !== undefined) {
    const anchor: TabAnchor = { anchorString: sub(tab.anchorString) };
    for (const field of anchorOptionFields) {
      const value = text(tab[field]);
      if (value !== undefined) anchor[field] = value;
    }
    return anchor;
  }
  if (optional && tab.pageNumber === undefined && tab.xPosition === undefined && tab.yPosition === undefined)
    return undefined;
  return {
    documentId: documentId ?? v.firstDocumentId,
    pageNumber: text(tab.pageNumber) ?? '1',
    xPosition: text(tab.xPosition) ?? '0',
    yPosition: text(tab.yPosition) ?? '0',
  };
}

/** A tab with `${...}` substituted, its document defaulting to the envelope's first. */
function resolvedTab(
  kind: TabKindName,
  tab: RawTab,
  written: ReadonlyArray<string | number>,
  v: RowValues,
  role = false,
): ResolvedTab {
  const { sub, text } = v;
  const entry = tabKind(kind);
  const documentId = text(tab.documentId);
  const radio = entry.valueType === 'radio';
  // A radio group is on its document; each radio has the rest of its place.
  const place = radio
    ? { documentId: documentId ?? v.firstDocumentId, pageNumber: '1', xPosition: '0', yPosition: '0' }
    : tabPlace(tab, documentId, role, v);
  const resolved: ResolvedTab = place ? { kind, place, written } : { kind, written };
  const value = text(tab.value);
  if (value !== undefined) resolved.value = value;
  let fields: Record<string, string> | undefined;
  // The schema, made from the same catalogue, allows only strings, numbers and booleans in these fields.
  const given = tab as Record<string, string | number | boolean | undefined>;
  for (const [field, type] of Object.entries(entry.fields)) {
    if (field === 'value' || type === 'list-items' || type === 'radios') continue;
    const fieldValue = text(given[field]);
    if (fieldValue !== undefined) (fields ??= {})[field] = fieldValue;
  }
  if (fields) resolved.fields = fields;
  if ('listItems' in entry.fields && tab.listItems)
    resolved.listItems = packedMap(tab.listItems, (item) => {
      const out: ResolvedListItem = { text: sub(item.text) };
      const itemValue = text(item.value);
      if (itemValue !== undefined) out.value = itemValue;
      const selected = text(item.selected);
      if (selected !== undefined) out.selected = selected;
      return out;
    });
  if (radio && tab.radios)
    resolved.radios = packedMap(tab.radios, (r) => {
      const out: ResolvedRadio = { place: tabPlace(r, documentId, false, v)!, value: sub(r.value) };
      let radioFields: Record<string, string> | undefined;
      for (const field of radioFieldNames) {
        const fieldValue = text(r[field]);
        if (fieldValue !== undefined) (radioFields ??= {})[field] = fieldValue;
      }
      if (radioFields) out.fields = radioFields;
      return out;
    });
  return resolved;
}

/** Where a field of an expanded envelope was written: the CSV cell of its `${row.*}`, the defaults, or the envelope. */
function writtenPlaceOf(
  path: NodePath,
  raw: RawEnvelope,
  defaults: RawEnvelopeDefaults,
  row: Row | undefined,
  ctx: ExpandContext,
  base: Array<string | number>,
): Place {
  // Values inherited from defaults are written under `defaults`.
  let written: unknown = raw;
  for (const segment of path) written = (written as Record<string | number, unknown> | undefined)?.[segment];
  const fromDefaults = written === undefined && typeof path[0] === 'string' && path[0] in (defaults as object);
  if (fromDefaults) {
    written = defaults;
    for (const segment of path) written = (written as Record<string | number, unknown> | undefined)?.[segment];
  }
  if (row && typeof written === 'string') {
    const rowRef = findReferences(written).find((r) => r.kind === 'row');
    if (rowRef && rowRef.kind === 'row') return row.cell(rowRef.name);
  }
  return placeOf(ctx, fromDefaults ? ['defaults', ...path] : [...base, ...path]);
}

/** A template of a composite envelope: a stored one by its id (a GUID, as DocuSign's are), else a template of the job file by key. */
export function templateRefOf(ref: string): TemplateRef {
  return isTemplateId(ref) ? { templateId: ref } : { key: ref };
}

/** DocuSign's template ids are GUIDs; a template key of a job file is not one. */
export function isTemplateId(ref: string): boolean {
  return /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(ref.trim());
}

/** The anchor fields beside `anchorString`, copied as DocuSign's strings. */
const anchorOptionFields = [
  'anchorXOffset',
  'anchorYOffset',
  'anchorUnits',
  'anchorIgnoreIfNotPresent',
  'anchorCaseSensitive',
  'anchorMatchWholeWord',
] as const satisfies ReadonlyArray<keyof TabAnchor & keyof RawTab>;

/** A radio's fields besides its place and value. */
const radioFieldNames = ['selected', 'locked', 'required', 'font', 'fontSize', 'bold'] as const satisfies ReadonlyArray<
  keyof RawRadio
>;

/** What every row of one pattern shares, computed once (10,000 rows make it count). */
interface PatternShared {
  source: ResolvedEnvelope['source'];
  paths: Map<string, string>;
  /**
   * The pattern's documents when no row changes them (made by its first row;
   * checking a row fills in the same facts of the same files), null when a
   * row does; undefined until the first row.
   */
  documents?: ResolvedEnvelope['documents'] | null;
}
const sharedByPattern = new WeakMap<RawEnvelope, PatternShared>();

/** No `${row.*}` in any document's file or name, and no Word merge values (the row's own, never shared). */
export function sameForEveryRow(raw: RawEnvelope): boolean {
  const byRow = (value: string | undefined) =>
    value !== undefined && findReferences(value).some((ref) => ref.kind === 'row');
  return (raw.documents ?? []).every((d) => d.docGenFormFields === undefined && !byRow(d.file) && !byRow(d.name));
}

function sharedOf(raw: RawEnvelope, index: number, ctx: ExpandContext, collection: ItemCollection): PatternShared {
  let shared = sharedByPattern.get(raw);
  if (!shared) {
    shared = { source: { file: ctx.file, ...ctx.locator.locate([collection, index]) }, paths: new Map() };
    sharedByPattern.set(raw, shared);
  }
  return shared;
}

/** The job file's `notification` with the schema's defaults applied (schemas/job.schema.json). */
function notificationOf(raw: RawNotification | undefined): ResolvedNotification | undefined {
  if (!raw) return undefined;
  const n: ResolvedNotification = {};
  if (raw.reminders) {
    n.reminders = {
      reminderEnabled: raw.reminders.reminderEnabled ?? true,
      reminderDelay: raw.reminders.reminderDelay ?? 2,
      reminderFrequency: raw.reminders.reminderFrequency ?? 2,
    };
  }
  if (raw.expirations) {
    n.expirations = {
      expireEnabled: raw.expirations.expireEnabled ?? true,
      expireAfter: raw.expirations.expireAfter ?? 120,
      expireWarn: raw.expirations.expireWarn ?? 0,
    };
  }
  return n;
}

/** `['templateRoles', i]`, one array per index for every row (10,000 rows share them). */
const rolePaths: Array<readonly ['templateRoles', number]> = [];
function roleWritten(i: number): ReadonlyArray<string | number> {
  return (rolePaths[i] ??= ['templateRoles', i]);
}
