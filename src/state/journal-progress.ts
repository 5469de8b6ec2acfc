import type { EnvelopeStatusFacts, JournalRecord } from './journal-record.js';

/** What the journal says about one envelope: the steps already done, folded from its records. */
export interface EnvelopeProgress {
  id: string;
  /** A create call may have been sent (an intent was recorded). */
  createIntent?: { digest: string; transactionId: string; at: string };
  /** Drafts this identity's runs created (each may have lost to an earlier one). */
  drafts: string[];
  /** Drafts deleted after losing. */
  discarded: Set<string>;
  /** The envelope this identity is (created, confirmed or adopted). */
  created?: { envelopeId: string; digest: string; adopted: boolean; at: string };
  /** The envelope was sent. */
  sent: boolean;
  /** The draft whose Word letters were generated (PUT …/docGenFormFields), by envelopeId. */
  docGen?: { envelopeId: string };
  /** Latest view per recipientId, with its expiry (ISO 8601). */
  views: Map<string, { expiresAt: string; onDemand?: true }>;
  /** Latest download per documentId. */
  documents: Map<string, { sha256: string; path: string; size: number }>;
  certificate?: { sha256: string; path: string; size: number };
  done: boolean;
  /** The latest status a sync learnt (issue 12), with the envelopeId it is of. */
  status?: { envelopeId: string; facts: EnvelopeStatusFacts; at: string };
  /** The completed envelope's documents were collected (envelopeId → files). */
  collected?: { envelopeId: string; files: Array<{ path: string; sha256: string; size: number }> };
  /** A void was asked for (intent) / confirmed, by envelopeId. */
  voidIntent?: { envelopeId: string; reason: string };
  voided?: { envelopeId: string; reason: string; replaced: boolean };
  /** Envelopes replaced under this key (oldest first): their ids, kept as history. */
  replaced: string[];
  /**
   * The last reminder `signrun remind` sent, with the envelopeId it was for,
   * and when each recipient (recipientId) of that envelope was last reminded.
   */
  reminded?: { envelopeId: string; at: string; recipients: Map<string, string> };
}

/** The account-level listings made (issue 12), latest per account id. */
export interface ListingProgress {
  accountId: string;
  listedAt: string;
  fromDate: string;
}

/** What the journal says of one Bulk Send batch, by its name. */
export interface BulkProgress {
  name: string;
  job: string;
  listId: string;
  modelId: string;
  size: number;
  /** Known once the send's answer was journalled. */
  batchId?: string;
  /** No copy is queued any more: its envelopes are all in the service's listing. */
  followed: boolean;
}

/** What the journal says about one account. */
export interface AccountProgress {
  id: string;
  createIntent: boolean;
  /** Claim drafts this state's runs made for the account. */
  claims: string[];
  accountId?: string;
  /** The user created with it (deleting the account logs in as that user). */
  userId?: string;
  /** Created (or adopted) and not deleted since. */
  present: boolean;
  deleted: boolean;
}

/** What the journal says of a template kept as code. */
export interface TemplateProgress {
  templateId: string;
  /** The digest of the content signrun last wrote. */
  digest: string;
  present: boolean;
}

/** What the journal says of a permission profile, group or user kept as code in an account. */
export interface AccountItemProgress {
  itemId: string;
  /** The digest of what signrun last wrote ('' once deleted). */
  digest: string;
  present: boolean;
}

/** The state of a campaign as its journal tells it. */
export interface JournalProgress {
  envelopes: Map<string, EnvelopeProgress>;
  accounts: Map<string, AccountProgress>;
  /** Templates kept as code, by identity: the template this state last made or changed, unless deleted since. */
  templates: Map<string, TemplateProgress>;
  listings: Map<string, ListingProgress>;
  /** Profiles, groups and users of accounts, by identity (`<job>/<key>#user:<email>` …). */
  accountItems: Map<string, AccountItemProgress>;
  /** Bulk Send batches, by name, in the order they were sent. */
  bulk: Map<string, BulkProgress>;
}

/**
 * Folds journal records (in file order) into what is done per envelope and
 * account. Later records win (a re-downloaded document replaces the earlier
 * sha256). What to redo is the plan's decision (src/runner/decide.ts): a
 * `create-intent` or `draft` without `created` means "ask the service which
 * envelope of this identity is the one"; a view whose `expiresAt` is near is
 * made again; a document not journalled is downloaded.
 */
export function journalProgress(records: readonly JournalRecord[]): JournalProgress {
  const envelopes = new Map<string, EnvelopeProgress>();
  const accounts = new Map<string, AccountProgress>();
  const listings = new Map<string, ListingProgress>();
  const templates = new Map<string, TemplateProgress>();
  const accountItems = new Map<string, AccountItemProgress>();
  const bulk = new Map<string, BulkProgress>();
  for (const r of records) {
    if (r.kind === 'account-item') {
      accountItems.set(r.id, {
        itemId: r.itemId,
        digest: r.step === 'written' ? r.digest : '',
        present: r.step === 'written',
      });
    } else if (r.kind === 'bulk') {
      if (r.step === 'send-intent')
        bulk.set(r.id, { name: r.id, job: r.job, listId: r.listId, modelId: r.modelId, size: r.size, followed: false });
      const b = bulk.get(r.id);
      if (b && r.step === 'batch') b.batchId = r.batchId;
      if (b && r.step === 'followed') b.followed = true;
    } else if (r.kind === 'template') {
      const digest = r.step === 'deleted' ? (templates.get(r.id)?.digest ?? '') : r.digest;
      templates.set(r.id, { templateId: r.templateId, digest, present: r.step !== 'deleted' });
    } else if (r.kind === 'listing') {
      listings.set(r.id, { accountId: r.id, listedAt: r.listedAt, fromDate: r.fromDate });
    } else if (r.kind === 'envelope') {
      let p = envelopes.get(r.id);
      if (!p) {
        p = {
          id: r.id,
          drafts: [],
          discarded: new Set(),
          sent: false,
          views: new Map(),
          documents: new Map(),
          done: false,
          replaced: [],
        };
        envelopes.set(r.id, p);
      }
      switch (r.step) {
        case 'create-intent':
          p.createIntent = { digest: r.digest, transactionId: r.transactionId, at: r.at };
          break;
        case 'created':
          p.created = { envelopeId: r.envelopeId, digest: r.digest, adopted: r.adopted === true, at: r.at };
          break;
        case 'draft':
          p.drafts.push(r.envelopeId);
          break;
        case 'discarded':
          p.discarded.add(r.envelopeId);
          break;
        case 'sent':
          p.sent = true;
          break;
        case 'docgen':
          p.docGen = { envelopeId: r.envelopeId };
          break;
        case 'view':
          p.views.set(r.recipientId, { expiresAt: r.expiresAt, ...(r.onDemand ? { onDemand: true as const } : {}) });
          break;
        case 'document':
          p.documents.set(r.documentId, { sha256: r.sha256, path: r.path, size: r.size });
          break;
        case 'certificate':
          p.certificate = { sha256: r.sha256, path: r.path, size: r.size };
          break;
        case 'done':
          p.done = true;
          break;
        case 'status':
          p.status = { envelopeId: r.envelopeId, facts: r.facts, at: r.at };
          break;
        case 'collected':
          p.collected = { envelopeId: r.envelopeId, files: r.files };
          break;
        case 'reminded': {
          // Per recipient: the next remind leaves those reminded within its interval, not the whole envelope.
          const recipients =
            p.reminded?.envelopeId === r.envelopeId ? p.reminded.recipients : new Map<string, string>();
          for (const id of r.recipients) recipients.set(id, r.at);
          p.reminded = { envelopeId: r.envelopeId, at: r.at, recipients };
          break;
        }
        case 'void-intent':
          p.voidIntent = { envelopeId: r.envelopeId, reason: r.reason };
          break;
        case 'voided':
          p.voided = { envelopeId: r.envelopeId, reason: r.reason, replaced: r.replaced === true };
          // Voided by signrun: the status a sync recorded before is no longer the envelope's.
          if (p.status?.envelopeId === r.envelopeId) {
            const facts = { ...p.status.facts, status: 'voided', voidedReason: r.reason, voidedAt: r.at };
            p.status = { ...p.status, facts, at: r.at };
          }
          if (r.replaced === true) {
            // A replacement starts the key afresh: its next envelope is created anew.
            p.replaced.push(r.envelopeId);
            delete p.created;
            delete p.createIntent;
            p.drafts = [];
            p.discarded = new Set();
            p.sent = false;
            delete p.status;
            delete p.collected;
            p.views.clear();
            p.documents.clear();
            delete p.certificate;
            p.done = false;
          }
          break;
      }
    } else {
      let a = accounts.get(r.id);
      if (!a) {
        a = { id: r.id, createIntent: false, claims: [], present: false, deleted: false };
        accounts.set(r.id, a);
      }
      switch (r.step) {
        case 'create-intent':
          a.createIntent = true;
          if (r.claimId !== undefined) a.claims.push(r.claimId);
          break;
        case 'created':
          a.accountId = r.accountId;
          if (r.userId !== undefined) a.userId = r.userId;
          a.present = true;
          a.deleted = false;
          break;
        case 'deleted':
          a.accountId = r.accountId;
          a.present = false;
          a.deleted = true;
          break;
      }
    }
  }
  return { envelopes, accounts, templates, listings, accountItems, bulk };
}
