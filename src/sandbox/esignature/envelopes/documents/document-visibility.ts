import { recipientKind, tabsByKind } from '../../../../envelope/index.js';
import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import type { DocumentRecord, RecipientRecord } from '../repository.js';

// Document visibility (DocuSign's eg040, "Set document visibility"): with an
// envelope's `enforceSignerVisibility` true, each recipient's
// `excludedDocuments` are hidden from them, and a document with tabs shows
// to a signer only when the signer has a tab on it; documents without tabs,
// and every document for the recipients who do not sign (carbon copies,
// certified deliveries, agents, editors, intermediaries), show unless
// excluded. Without enforceSignerVisibility everyone sees everything, as
// DocuSign says `excludedDocuments` then does nothing (Swagger
// #/definitions/signer.excludedDocuments).

export type DocumentVisibility = ReturnType<typeof createDocumentVisibility>;

const stores = new WeakMap<SandboxDatabase, DocumentVisibility>();

/** Which envelopes enforce signer visibility (table `envelope_visibility`, db/schema.ts). */
export function documentVisibility(db: SandboxDatabase): DocumentVisibility {
  let store = stores.get(db);
  if (!store) {
    store = createDocumentVisibility(db);
    stores.set(db, store);
  }
  return store;
}

function createDocumentVisibility(db: SandboxDatabase) {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO envelope_visibility (envelope_id, enforce_signer_visibility) VALUES (?, 1)',
  );
  const select = db.prepare<[string], { n: number }>(
    'SELECT 1 AS n FROM envelope_visibility WHERE envelope_id = ? AND enforce_signer_visibility = 1',
  );
  return {
    /** Records that an envelope enforces signer visibility (before its creation commits). */
    enforce(envelopeId: string): void {
      insert.run(envelopeId);
    },
    /** Whether the envelope enforces signer visibility. */
    enforced(envelopeId: string): boolean {
      return select.get(envelopeId) !== undefined;
    },
    /** Whether `recipient` may see `documentId` (see the rules above). */
    visible(
      envelopeId: string,
      recipient: RecipientRecord,
      recipients: readonly RecipientRecord[],
      documentId: string,
    ): boolean {
      if (!this.enforced(envelopeId)) return true;
      if ((recipient.details.excludedDocuments ?? []).includes(documentId)) return false;
      if (!recipientKind(recipient.kind).signs) return true;
      const onDocument = (r: RecipientRecord) => tabsByKind(r.tabs).some((t) => t.tab['documentId'] === documentId);
      return !recipients.some(onDocument) || onDocument(recipient);
    },
    /** The documents `recipient` may see, in envelope order. */
    visibleDocuments(
      envelopeId: string,
      recipient: RecipientRecord,
      recipients: readonly RecipientRecord[],
      documents: readonly DocumentRecord[],
    ): DocumentRecord[] {
      return documents.filter((d) => this.visible(envelopeId, recipient, recipients, d.documentId));
    },
  };
}
