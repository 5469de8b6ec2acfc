import type { RecipientKindName, Tabs } from '../../../envelope/index.js';
import type { RecipientDetails } from './wire/envelope-definition.js';
import type { Statement } from 'better-sqlite3';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import { envelopeListingSql, listedEnvelopeColumns, type EnvelopeQuery } from './envelope-listing-sql.js';
import { objectRows } from '../../platform/db/object-rows.js';
import { setBounded } from '../../platform/bounded-map.js';

/** Envelope statuses the sandbox moves through (DocuSign's names). */
/** `deleted`: a draft moved to the recycle bin (PUT …/folders/recyclebin); never sent, never shown again but in the status-changes listing. */
export type EnvelopeStatus = 'created' | 'sent' | 'delivered' | 'completed' | 'declined' | 'voided' | 'deleted';
/** Recipient statuses (DocuSign's names); `created` = routing order not reached yet, or a draft. */
export type RecipientStatus = 'created' | 'sent' | 'delivered' | 'completed' | 'declined';

/** One envelope row. Times are epoch ms. */
export interface EnvelopeRecord {
  id: string;
  accountId: string;
  senderUserId: string;
  status: EnvelopeStatus;
  emailSubject: string;
  emailBlurb: string;
  templateId: string | null;
  transactionId: string | null;
  /** `eventNotification` as the client sent it (Connect reads it). */
  eventNotification: Record<string, unknown> | null;
  createdAt: number;
  sentAt: number | null;
  deliveredAt: number | null;
  completedAt: number | null;
  declinedAt: number | null;
  voidedAt: number | null;
  voidedReason: string | null;
  statusChangedAt: number;
}

/** One recipient of an envelope, of any kind, in submission order (`position`). */
export interface RecipientRecord {
  envelopeId: string;
  recipientId: string;
  /** The recipient kind (catalogue name: `signer`, `carbonCopy`, …). */
  kind: RecipientKindName;
  /** The kind's own fields (host, signer name, witnessFor). */
  details: RecipientDetails;
  /** scrypt hash of the access code (auth/password-hash.ts), null when none: the code itself is never stored. */
  accessCodeHash: string | null;
  /** Wrong access codes entered so far (signing/access-code.ts locks the recipient at its limit). */
  accessCodeFailures: number;
  position: number;
  recipientIdGuid: string;
  userId: string;
  name: string;
  email: string;
  clientUserId: string | null;
  routingOrder: number;
  roleName: string | null;
  status: RecipientStatus;
  /** `tabs` as the client sent them: DocuSign's EnvelopeRecipientTabs, values stringified. */
  tabs: Tabs;
  emailSubject: string | null;
  emailBody: string | null;
  supportedLanguage: string | null;
  sentAt: number | null;
  deliveredAt: number | null;
  signedAt: number | null;
  declinedAt: number | null;
  declinedReason: string | null;
}

/** One document of an envelope. `sha256` is the current version (stamped after signing); `originalSha256` as uploaded. */
export interface DocumentRecord {
  envelopeId: string;
  documentId: string;
  position: number;
  name: string;
  sha256: string;
  originalSha256: string;
  size: number;
  /** Page count; null until computed (kept off the creation hot path). */
  pages: number | null;
}

/** A text or list custom field of an envelope (DocuSign's textCustomFields / listCustomFields). */
export interface CustomFieldRecord {
  kind: 'text' | 'list';
  fieldId: string;
  name: string;
  value: string;
  show: string;
  required: string;
  listItems: string[] | null;
}

// EnvelopeQuery is defined beside the SQL it becomes (envelope-listing-sql.ts), so the two modules do not import each other.
export type { EnvelopeQuery };

type Row = Record<string, unknown>;

type EnvelopeColumn = (typeof listedEnvelopeColumns)[number];

/** An envelope record from its columns' values, however they were read: a row by name, or the listing's array. */
const envelopeFrom = (column: (name: EnvelopeColumn) => unknown): EnvelopeRecord => ({
  id: column('id') as string,
  accountId: column('account_id') as string,
  senderUserId: column('sender_user_id') as string,
  status: column('status') as EnvelopeStatus,
  emailSubject: column('email_subject') as string,
  emailBlurb: column('email_blurb') as string,
  templateId: column('template_id') as string | null,
  transactionId: column('transaction_id') as string | null,
  eventNotification: column('event_notification_json')
    ? (JSON.parse(column('event_notification_json') as string) as Record<string, unknown>)
    : null,
  createdAt: column('created_at') as number,
  sentAt: column('sent_at') as number | null,
  deliveredAt: column('delivered_at') as number | null,
  completedAt: column('completed_at') as number | null,
  declinedAt: column('declined_at') as number | null,
  voidedAt: column('voided_at') as number | null,
  voidedReason: column('voided_reason') as string | null,
  statusChangedAt: column('status_changed_at') as number,
});

const toEnvelope = (r: Row): EnvelopeRecord => envelopeFrom((name) => r[name]);

/** Where each column is in an envelope of the listing's JSON (envelope-listing-sql.ts). */
const listedAt = Object.fromEntries(listedEnvelopeColumns.map((name, i) => [name, i])) as Record<
  EnvelopeColumn,
  number
>;

/** An envelope of the listing's JSON: the values of `listedEnvelopeColumns`, in that order. */
const toListedEnvelope = (v: unknown[]): EnvelopeRecord => envelopeFrom((name) => v[listedAt[name]]);

const toRecipient = (r: Row): RecipientRecord => ({
  envelopeId: r['envelope_id'] as string,
  recipientId: r['recipient_id'] as string,
  kind: r['kind'] as RecipientKindName,
  details: JSON.parse(r['details_json'] as string) as RecipientDetails,
  accessCodeHash: r['access_code_hash'] as string | null,
  accessCodeFailures: r['access_code_failures'] as number,
  position: r['position'] as number,
  recipientIdGuid: r['recipient_id_guid'] as string,
  userId: r['user_id'] as string,
  name: r['name'] as string,
  email: r['email'] as string,
  clientUserId: r['client_user_id'] as string | null,
  routingOrder: r['routing_order'] as number,
  roleName: r['role_name'] as string | null,
  status: r['status'] as RecipientStatus,
  tabs: JSON.parse(r['tabs_json'] as string) as Tabs,
  emailSubject: r['email_subject'] as string | null,
  emailBody: r['email_body'] as string | null,
  supportedLanguage: r['supported_language'] as string | null,
  sentAt: r['sent_at'] as number | null,
  deliveredAt: r['delivered_at'] as number | null,
  signedAt: r['signed_at'] as number | null,
  declinedAt: r['declined_at'] as number | null,
  declinedReason: r['declined_reason'] as string | null,
});

const toDocument = (r: Row): DocumentRecord => ({
  envelopeId: r['envelope_id'] as string,
  documentId: r['document_id'] as string,
  position: r['position'] as number,
  name: r['name'] as string,
  sha256: r['sha256'] as string,
  originalSha256: r['original_sha256'] as string,
  size: r['size'] as number,
  pages: r['pages'] as number | null,
});

const toCustomField = (r: Row): CustomFieldRecord => ({
  kind: r['kind'] as 'text' | 'list',
  fieldId: r['field_id'] as string,
  name: r['name'] as string,
  value: r['value'] as string,
  show: r['show'] as string,
  required: r['required'] as string,
  listItems: r['list_items_json'] ? (JSON.parse(r['list_items_json'] as string) as string[]) : null,
});

/** A custom field's columns as customFieldsOfMany reads them: envelope_id, kind, field_id, name, value, show, required, list_items_json. */
type CustomFieldColumns = [string, 'text' | 'list', string, string, string, string, string, string | null];

/** Envelopes with their recipients, documents and custom fields. Writes are synchronous SQLite statements; callers wrap them in transactions. */
export type EnvelopesRepository = ReturnType<typeof envelopesRepository>;

// eslint-disable-next-line max-lines-per-function -- a repository is one closure over its prepared SQLite statements, a method each; the length is the list of statements.
export function envelopesRepository(db: SandboxDatabase) {
  const q = {
    envelope: objectRows(db.prepare<[string, string]>('SELECT * FROM envelopes WHERE id = ? AND account_id = ?')),
    envelopeAnyAccount: objectRows(db.prepare<[string]>('SELECT * FROM envelopes WHERE id = ?')),
    hasEventNotification: db
      .prepare<[string], number>('SELECT event_notification_json IS NOT NULL FROM envelopes WHERE id = ?')
      .pluck(),
    recipients: objectRows(db.prepare<[string]>('SELECT * FROM recipients WHERE envelope_id = ? ORDER BY position')),
    documents: objectRows(
      db.prepare<[string]>('SELECT * FROM envelope_documents WHERE envelope_id = ? ORDER BY position'),
    ),
    customFields: db.prepare<[string], Row>(
      'SELECT * FROM envelope_custom_fields WHERE envelope_id = ? ORDER BY position',
    ),
    // The ids as one JSON array: one statement whatever their number. The rows come back as one JSON text of
    // arrays, parsed once: a listing page's ~1,300 fields as row objects cost ~1.8 µs each in better-sqlite3
    // (one string and property per column), ~2.4 ms a runner's listing on the sandbox's event loop; as JSON ~0.9.
    customFieldsOfMany: db
      .prepare<[string], string>(
        `SELECT json_group_array(json_array(envelope_id, kind, field_id, name, value, show, required, list_items_json)
           ORDER BY envelope_id, position)
         FROM envelope_custom_fields WHERE envelope_id IN (SELECT value FROM json_each(?))`,
      )
      .pluck(),
    insertEnvelope: db.prepare(
      `INSERT INTO envelopes (id, account_id, sender_user_id, status, email_subject, email_blurb, template_id, transaction_id,
         event_notification_json, created_at, sent_at, delivered_at, completed_at, declined_at, voided_at, voided_reason, status_changed_at)
       VALUES (@id, @accountId, @senderUserId, @status, @emailSubject, @emailBlurb, @templateId, @transactionId,
         @eventNotificationJson, @createdAt, @sentAt, @deliveredAt, @completedAt, @declinedAt, @voidedAt, @voidedReason, @statusChangedAt)`,
    ),
    insertRecipient: db.prepare(
      `INSERT INTO recipients (envelope_id, recipient_id, position, recipient_id_guid, user_id, name, email, client_user_id, routing_order,
         role_name, status, tabs_json, email_subject, email_body, supported_language, sent_at, delivered_at, signed_at, declined_at, declined_reason,
         kind, details_json, access_code_hash, access_code_failures)
       VALUES (@envelopeId, @recipientId, @position, @recipientIdGuid, @userId, @name, @email, @clientUserId, @routingOrder,
         @roleName, @status, @tabsJson, @emailSubject, @emailBody, @supportedLanguage, @sentAt, @deliveredAt, @signedAt, @declinedAt, @declinedReason,
         @kind, @detailsJson, @accessCodeHash, @accessCodeFailures)`,
    ),
    insertDocument: db.prepare(
      `INSERT INTO envelope_documents (envelope_id, document_id, position, name, sha256, original_sha256, size, pages)
       VALUES (@envelopeId, @documentId, @position, @name, @sha256, @originalSha256, @size, @pages)`,
    ),
    // With the envelope's account and status change time, for the listing's index (schema.ts: schemaIndexes).
    insertCustomField: db.prepare(
      `INSERT INTO envelope_custom_fields (envelope_id, position, kind, field_id, name, value, show, required, list_items_json,
         account_id, status_changed_at)
       VALUES (@envelopeId, @position, @kind, @fieldId, @name, @value, @show, @required, @listItemsJson,
         @accountId, @statusChangedAt)`,
    ),
    envelopeAccountAndTime: db.prepare<[string], { accountId: string; statusChangedAt: number }>(
      'SELECT account_id AS accountId, status_changed_at AS statusChangedAt FROM envelopes WHERE id = ?',
    ),
    updateEnvelope: db.prepare(
      `UPDATE envelopes SET status = @status, sent_at = @sentAt, delivered_at = @deliveredAt, completed_at = @completedAt,
         declined_at = @declinedAt, voided_at = @voidedAt, voided_reason = @voidedReason, status_changed_at = @statusChangedAt WHERE id = @id`,
    ),
    updateRecipient: db.prepare(
      `UPDATE recipients SET status = @status, sent_at = @sentAt, delivered_at = @deliveredAt, signed_at = @signedAt,
         declined_at = @declinedAt, declined_reason = @declinedReason WHERE envelope_id = @envelopeId AND recipient_id = @recipientId`,
    ),
    countAccessCodeFailure: db.prepare(
      `UPDATE recipients SET access_code_failures = access_code_failures + 1 WHERE envelope_id = ? AND recipient_id = ?
       RETURNING access_code_failures`,
    ),
    updateRecipientTabs: db.prepare('UPDATE recipients SET tabs_json = ? WHERE envelope_id = ? AND recipient_id = ?'),
    updateDocumentVersion: db.prepare(
      'UPDATE envelope_documents SET sha256 = ?, size = ?, pages = COALESCE(?, pages) WHERE envelope_id = ? AND document_id = ?',
    ),
    setPages: db.prepare('UPDATE envelope_documents SET pages = ? WHERE envelope_id = ? AND document_id = ?'),
  };
  const listing = statementCache(db);

  return {
    /** The envelope if it belongs to `accountId`; undefined otherwise (missing and foreign look the same). */
    get(accountId: string, envelopeId: string): EnvelopeRecord | undefined {
      const row = q.envelope.get(envelopeId, accountId);
      return row && toEnvelope(row);
    },
    /** The envelope whatever its account (for the signing page, which holds a token, not a login). */
    getById(envelopeId: string): EnvelopeRecord | undefined {
      const row = q.envelopeAnyAccount.get(envelopeId);
      return row && toEnvelope(row);
    },
    /** Whether the envelope exists and carries an `eventNotification` (Connect: one column, not the whole row). */
    hasEventNotification(envelopeId: string): boolean {
      return q.hasEventNotification.get(envelopeId) === 1;
    },
    recipients(envelopeId: string): RecipientRecord[] {
      return q.recipients.all(envelopeId).map(toRecipient);
    },
    documents(envelopeId: string): DocumentRecord[] {
      return q.documents.all(envelopeId).map(toDocument);
    },
    customFields(envelopeId: string): CustomFieldRecord[] {
      return q.customFields.all(envelopeId).map(toCustomField);
    },
    /** The custom fields of many envelopes in one query (a listing page): by envelope id, each in order. */
    customFieldsOfMany(envelopeIds: readonly string[]): Map<string, CustomFieldRecord[]> {
      const byEnvelope = new Map<string, CustomFieldRecord[]>();
      const rows = JSON.parse(q.customFieldsOfMany.get(JSON.stringify(envelopeIds)) ?? '[]') as CustomFieldColumns[];
      for (const [id, kind, fieldId, name, value, show, required, listItemsJson] of rows) {
        let fields = byEnvelope.get(id);
        if (!fields) byEnvelope.set(id, (fields = []));
        fields.push({
          kind,
          fieldId,
          name,
          value,
          show,
          required,
          listItems: listItemsJson ? (JSON.parse(listItemsJson) as string[]) : null,
        });
      }
      return byEnvelope;
    },
    insert(
      envelope: EnvelopeRecord,
      recipients: RecipientRecord[],
      documents: DocumentRecord[],
      customFields: CustomFieldRecord[],
    ): void {
      q.insertEnvelope.run({
        ...envelope,
        eventNotificationJson: envelope.eventNotification === null ? null : JSON.stringify(envelope.eventNotification),
      });
      for (const r of recipients)
        q.insertRecipient.run({
          ...r,
          tabsJson: JSON.stringify(r.tabs),
          detailsJson: JSON.stringify(r.details),
        });
      for (const d of documents) q.insertDocument.run({ ...d });
      customFields.forEach((f, position) =>
        q.insertCustomField.run({
          envelopeId: envelope.id,
          position,
          kind: f.kind,
          fieldId: f.fieldId,
          name: f.name,
          value: f.value,
          show: f.show,
          required: f.required,
          listItemsJson: f.listItems === null ? null : JSON.stringify(f.listItems),
          accountId: envelope.accountId,
          statusChangedAt: envelope.statusChangedAt,
        }),
      );
    },
    /** Adds text custom fields to an envelope (EnvelopeCustomFields_PostCustomFields), after those it has. */
    addCustomFields(envelopeId: string, fields: Array<{ name: string; value: string; show: string }>): void {
      const existing = q.customFields.all(envelopeId).length;
      const owner = q.envelopeAccountAndTime.get(envelopeId);
      fields.forEach((f, i) =>
        q.insertCustomField.run({
          envelopeId,
          position: existing + i,
          kind: 'text',
          fieldId: String(10_000_000 + existing + i),
          name: f.name,
          value: f.value,
          show: f.show,
          required: 'false',
          listItemsJson: null,
          accountId: owner?.accountId ?? null,
          statusChangedAt: owner?.statusChangedAt ?? null,
        }),
      );
    },
    updateEnvelope(envelope: EnvelopeRecord): void {
      q.updateEnvelope.run({ ...envelope });
    },
    updateRecipient(recipient: RecipientRecord): void {
      q.updateRecipient.run({ ...recipient });
    },
    /** Counts one wrong access code for a recipient; returns how many there have been. */
    countAccessCodeFailure(envelopeId: string, recipientId: string): number {
      const row = q.countAccessCodeFailure.get(envelopeId, recipientId) as { access_code_failures: number } | undefined;
      return row?.access_code_failures ?? 0;
    },
    /** A recipient's tabs with their final values (at signing). */
    updateRecipientTabs(envelopeId: string, recipientId: string, tabs: Tabs): void {
      q.updateRecipientTabs.run(JSON.stringify(tabs), envelopeId, recipientId);
    },
    /** Points a document at a new version (stamped bytes already in the blob store); the original stays. */
    replaceDocumentVersion(
      envelopeId: string,
      documentId: string,
      sha256: string,
      size: number,
      pages: number | null,
    ): void {
      q.updateDocumentVersion.run(sha256, size, pages, envelopeId, documentId);
    },
    setPages(envelopeId: string, documentId: string, pages: number): void {
      q.setPages.run(pages, envelopeId, documentId);
    },
    /** The status-changes listing, oldest change first (the SQL: envelope-listing-sql.ts). */
    list(query: EnvelopeQuery): { total: number; envelopes: EnvelopeRecord[] } {
      const sql = envelopeListingSql(query);
      const total = (listing.get(sql.count).get(sql.params) as { n: number }).n;
      // Counted first: an empty page (the runner's lookup of an envelope not made yet) needs no second query.
      if (query.startPosition >= total) return { total, envelopes: [] };
      if (query.startPosition === 0 && total <= query.count) {
        const listed = JSON.parse(
          (listing.get(sql.all).pluck().get(sql.params) as string | null) ?? '[]',
        ) as unknown[][];
        return { total, envelopes: listed.map(toListedEnvelope) };
      }
      return { total, envelopes: (listing.get(sql.page).all(sql.pageParams) as Row[]).map(toEnvelope) };
    },
  };
}

/**
 * Prepared statements by SQL text, for the listing's few shapes (one per
 * combination of filters and list lengths): preparing cost ~35 µs a call.
 * At most `capacity` are kept, the oldest dropped first.
 */
function statementCache(db: SandboxDatabase, capacity = 64) {
  const statements = new Map<string, Statement>();
  return {
    get(sql: string): Statement {
      let statement = statements.get(sql);
      if (!statement) {
        statement = db.prepare(sql);
        setBounded(statements, sql, statement, capacity);
      }
      return statement;
    },
  };
}
