import type { EnvelopeFacts, RecipientFacts } from '../output/status-fields.js';

/**
 * The records of the journal, one JSON object per line. Every record names the
 * envelope or account by its identity (`<job>/<key>`, see `identityOf`) and the
 * step it records as done. Signing addresses, tokens and passwords are never
 * journalled: a view record says only that a view was made and until when it
 * works.
 */
export type JournalRecord =
  EnvelopeRecord | AccountRecord | TemplateRecord | ListingRecord | AccountItemRecord | BulkRecord;

/** What the service said of one recipient at a sync (issue 12): its status and the facts of output/status-fields.ts. */
export interface RecipientStatus extends RecipientFacts {
  recipientId: string;
  status: string;
  /** The recipient kind when not a signer (`carbonCopy`, `inPersonSigner`, …): facts of signers stay as they were. */
  kind?: string;
  /** The template role filled, for an envelope from a template: how its record (which had no recipientId yet) is found. */
  roleName?: string;
}

/**
 * What the service said of one envelope at a sync: its status, the facts of
 * output/status-fields.ts (when, why; `declinedReason` is the one the
 * recipient who declined gave), and each recipient's.
 */
export interface EnvelopeStatusFacts extends EnvelopeFacts {
  status: string;
  recipients: RecipientStatus[];
}

/** Fields common to every record. */
interface RecordBase {
  /** Format version of the record; 1. */
  v: 1;
  /** When the record was written, ISO 8601 UTC. Filled in by `Journal.append` when absent. */
  at: string;
  /** `<job>/<key>`. */
  id: string;
}

/** The steps of one envelope, in the order a run takes them. */
export type EnvelopeRecord =
  | (RecordBase & {
      kind: 'envelope';
      /**
       * Written (and fsync'ed) BEFORE the create call is sent: a later run
       * that finds an intent without `created` knows the envelope may exist
       * and must look it up by custom field / transactionId before creating.
       */
      step: 'create-intent';
      /** Content digest sent in the `signrunDigest` custom field. */
      digest: string;
      transactionId: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /**
       * A draft carrying the identity was created (the service answered 201).
       * It may yet lose to an earlier draft of another runner: only a
       * `created` record says which envelope is the one.
       */
      step: 'draft';
      envelopeId: string;
      digest: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /**
       * The envelope this identity is, for good: created directly (a run's
       * own in-process sandbox), confirmed as the earliest of its identity,
       * or found on the service (`adopted: true`).
       */
      step: 'created';
      envelopeId: string;
      digest: string;
      /** True when found on the service instead of created by this run. */
      adopted?: boolean;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** A draft of this identity lost to an earlier one and was deleted (moved to the recycle bin). */
      step: 'discarded';
      envelopeId: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** The envelope was sent (by this run, or found sent by another). */
      step: 'sent';
      envelopeId: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** The draft's Word letters were generated from its values (PUT …/docGenFormFields, DocuSign's Document Generation). */
      step: 'docgen';
      envelopeId: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /**
       * A signing view was made for one embedded recipient; the address
       * itself is in signing.json (0600), never here. With `onDemand`, none
       * was made (`run --signing-urls on-demand`): signing.json lists the
       * recipient, whose address is made when they arrive.
       */
      step: 'view';
      recipientId: string;
      /** When the address stops working (DocuSign: 300 s, single use), ISO 8601; empty on demand. */
      expiresAt: string;
      onDemand?: true;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** A document was downloaded and written whole. */
      step: 'document';
      documentId: string;
      /** Hex sha256 of the bytes written. */
      sha256: string;
      /** Path relative to the output folder. */
      path: string;
      size: number;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** The certificate of completion was downloaded and written whole. */
      step: 'certificate';
      sha256: string;
      path: string;
      size: number;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** Every step of the envelope is done. */
      step: 'done';
    })
  | (RecordBase & {
      kind: 'envelope';
      /** A sync learnt a new status (issue 12): written only when something changed. */
      step: 'status';
      envelopeId: string;
      facts: EnvelopeStatusFacts;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** The completed envelope's documents and certificate are in the output folder (signed, sealed): never downloaded again. */
      step: 'collected';
      envelopeId: string;
      files: Array<{ path: string; sha256: string; size: number }>;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** `signrun remind` resent the envelope to these recipients (recipientIds): the next remind waits its interval. */
      step: 'reminded';
      envelopeId: string;
      recipients: string[];
    })
  | (RecordBase & {
      kind: 'envelope';
      /** Written (and fsync'ed) before the void call: the void is asked for once. */
      step: 'void-intent';
      envelopeId: string;
      reason: string;
    })
  | (RecordBase & {
      kind: 'envelope';
      /** The envelope was voided by signrun (`status: voided` in the job file, or replaced after drift). */
      step: 'voided';
      envelopeId: string;
      reason: string;
      /** Replaced by a new envelope under the same key (`run --replace-drifted`): the history stays in the journal. */
      replaced?: boolean;
    });

/**
 * One account-level status-changes listing (issue 12): when it was made,
 * so the next one starts from there (minus an overlap) and waits DocuSign's
 * minimum interval. `id` is the account id.
 */
export type ListingRecord = RecordBase & {
  kind: 'listing';
  step: 'listed';
  /** The service's `lastQueriedDateTime` (or the time the listing was asked for). */
  listedAt: string;
  /** The from_date sent. */
  fromDate: string;
  calls: number;
};

/**
 * One Bulk Send batch of a run (`run --bulk-send`, docs/exactly-once.md,
 * "Bulk Send"). `id` is the batch's name, which the run chooses
 * (`signrun/<job>/<run>/<n>`), so a batch whose answer was lost is found by
 * name in the service's list of batches.
 */
export type BulkRecord =
  /** Written (and fsync'ed) BEFORE the send call: a batch may exist from now on, and is followed before anything else is decided. */
  | (RecordBase & {
      kind: 'bulk';
      step: 'send-intent';
      job: string;
      listId: string;
      /** The draft the copies are made from (deleted once the batch is done). */
      modelId: string;
      /** Copies in the list. */
      size: number;
    })
  /** The service answered the send: the batch's id. */
  | (RecordBase & { kind: 'bulk'; step: 'batch'; batchId: string })
  /** No copy of the batch is queued any more (or no batch was made): the service's listing holds all its envelopes. */
  | (RecordBase & { kind: 'bulk'; step: 'followed'; sent: number; failed: number });

/** The steps of one subsidiary account. */
export type AccountRecord =
  /** About to create: `claimId` is the claim draft this run made (docs/exactly-once.md, "Accounts"). */
  | (RecordBase & { kind: 'account'; step: 'create-intent'; claimId?: string })
  /** Created by this run (or found: `adopted`); the userId is what deleting it later logs in with. */
  | (RecordBase & { kind: 'account'; step: 'created'; accountId: string; userId?: string; adopted?: boolean })
  | (RecordBase & { kind: 'account'; step: 'deleted'; accountId: string });

/**
 * The steps of a template kept as code. The service is the truth (a
 * template carries its identity and the digest signrun wrote, so a run
 * finds it in any account); the journal records which template this state
 * made, changed or deleted, and when.
 */
export type TemplateRecord =
  /** Created by this run, or found on the service (`adopted`), as the one template of its identity. */
  | (RecordBase & { kind: 'template'; step: 'created'; templateId: string; digest: string; adopted?: boolean })
  /** Its content replaced by the file's (`outside`: it had been changed outside signrun). */
  | (RecordBase & { kind: 'template'; step: 'updated'; templateId: string; digest: string; outside?: boolean })
  | (RecordBase & { kind: 'template'; step: 'deleted'; templateId: string });

/**
 * A permission profile, group, user, brand or Connect configuration kept as
 * code inside a subsidiary account (`<job>/<key>#permissionProfile:<name>`,
 * `#group:<name>`, `#user:<email>`, `#brand:<name>`, `#connect:<name>`). The
 * account is the truth (items are found there by name or email); the journal
 * keeps the digest of what signrun last wrote (never a logo or a password), so
 * that a difference with the file unchanged is told as changed outside signrun.
 */
export type AccountItemRecord =
  | (RecordBase & { kind: 'account-item'; step: 'written'; itemId: string; digest: string; outside?: boolean })
  | (RecordBase & { kind: 'account-item'; step: 'deleted'; itemId: string });

/** A record as given to `Journal.append`: `v` and `at` are filled in. */
export type NewJournalRecord = JournalRecord extends infer R
  ? R extends JournalRecord
    ? Omit<R, 'v' | 'at'> & { at?: string }
    : never
  : never;

/** The envelope steps, for validation when reading. */
export const journalEnvelopeSteps = [
  'create-intent',
  'draft',
  'created',
  'discarded',
  'sent',
  'view',
  'document',
  'certificate',
  'done',
  'status',
  'collected',
  'void-intent',
  'voided',
  'reminded',
] as const;
/** The account steps, for validation when reading. */
export const journalAccountSteps = ['create-intent', 'created', 'deleted'] as const;

/** True when `value` has the shape of a journal record (checked when reading the journal back). */
export function isJournalRecord(value: unknown): value is JournalRecord {
  if (value === null || typeof value !== 'object') return false;
  const r = value as Record<string, unknown>;
  if (r['v'] !== 1 || typeof r['at'] !== 'string' || typeof r['id'] !== 'string' || typeof r['step'] !== 'string')
    return false;
  const str = (k: string) => typeof r[k] === 'string';
  switch (r['kind']) {
    case 'envelope':
      switch (r['step']) {
        case 'create-intent':
          return str('digest') && str('transactionId');
        case 'draft':
        case 'created':
          return str('envelopeId') && str('digest');
        case 'discarded':
        case 'sent':
        case 'docgen':
          return str('envelopeId');
        case 'view':
          return str('recipientId') && str('expiresAt');
        case 'document':
          return str('documentId') && str('sha256') && str('path') && typeof r['size'] === 'number';
        case 'certificate':
          return str('sha256') && str('path') && typeof r['size'] === 'number';
        case 'done':
          return true;
        case 'status':
          return str('envelopeId') && typeof r['facts'] === 'object' && r['facts'] !== null;
        case 'collected':
          return str('envelopeId') && Array.isArray(r['files']);
        case 'reminded':
          return str('envelopeId') && Array.isArray(r['recipients']);
        case 'void-intent':
        case 'voided':
          return str('envelopeId') && str('reason');
        default:
          return false;
      }
    case 'listing':
      return r['step'] === 'listed' && str('listedAt') && str('fromDate');
    case 'bulk':
      switch (r['step']) {
        case 'send-intent':
          return str('job') && str('listId') && str('modelId') && typeof r['size'] === 'number';
        case 'batch':
          return str('batchId');
        case 'followed':
          return typeof r['sent'] === 'number' && typeof r['failed'] === 'number';
        default:
          return false;
      }
    case 'template':
      switch (r['step']) {
        case 'created':
        case 'updated':
          return str('templateId') && str('digest');
        case 'deleted':
          return str('templateId');
        default:
          return false;
      }
    case 'account-item':
      return (r['step'] === 'written' && str('itemId') && str('digest')) || (r['step'] === 'deleted' && str('itemId'));
    case 'account':
      switch (r['step']) {
        case 'create-intent':
          return true;
        case 'created':
        case 'deleted':
          return str('accountId');
        default:
          return false;
      }
    default:
      return false;
  }
}
