import type { FileRecord } from '../output/output-folder.js';
import type { SourcePosition } from '../jobs/model.js';

// What one envelope or account came to: the types the run's events carry and
// its summary collects (both import them from here, so neither imports the other).

import type { EnvelopeStep } from './plan-types.js';

// The steps of one envelope are the plan's (plan-types.ts): one list for the plan, the run and the journal.
export { envelopeSteps, type EnvelopeStep } from './plan-types.js';

/** The service a run talked to. */
export interface RunTarget {
  /** e.g. http://127.0.0.1:41234/restapi/v2 */
  rootUrl: string;
  /** True when `run` started the sandbox in-process. */
  sandbox: boolean;
}

/** An error as the report shows it: code, words, where — never a secret. */
export interface ItemError {
  code: string;
  message: string;
  /** The step that failed (envelopes) or the action (accounts). */
  step?: string;
  /** HTTP status and DocuSign errorCode, when the service refused. */
  status?: number;
  serviceErrorCode?: string;
}

/** What happened to each recipient's signing address. */
export interface RecipientOutcome {
  recipientId: string;
  /** The recipient kind (`signer`, `carbonCopy`, `inPersonSigner`, …: src/envelope/recipient-kinds.ts). */
  kind?: string;
  roleName?: string;
  clientUserId?: string;
  routingOrder?: string;
  /**
   * `ready`: a signing address is in signing.json; `on-demand`: in turn, the
   * address is made when they arrive (`links serve`, `sign-url`);
   * `waiting-for-turn`: ask later with `sign-url`; `remote`: signs from the
   * service's email; `finished`: signed or declined, or the envelope is
   * settled: no address is needed.
   */
  signing: 'ready' | 'on-demand' | 'waiting-for-turn' | 'remote' | 'finished';
  /** Who, and what the service last said of them (`sync`): sent, delivered, completed, declined… and since when. */
  name?: string;
  email?: string;
  status?: string;
  statusAt?: string;
  declinedReason?: string;
}

/**
 * Where to point a person at an envelope: its forEach row when it has one
 * (what differs from row to row is there), else its place in the job file.
 */
export function placeOfEnvelope(e: { source: SourcePosition; rowSource?: SourcePosition }): SourcePosition {
  return e.rowSource ?? e.source;
}

/** The outcome of one envelope. */
export interface EnvelopeResult {
  job: string;
  key: string;
  source: SourcePosition;
  row?: number;
  /** The forEach row's place (its CSV line, or its item in the YAML). */
  rowSource?: SourcePosition;
  /** `succeeded`: every step done; `failed`: see error; `not-started`: the run was interrupted first. */
  outcome: 'succeeded' | 'failed' | 'not-started';
  /** True when an envelope.json of an earlier run already held this envelope: it was not created again. */
  adopted?: boolean;
  envelopeId?: string;
  /** DocuSign's word: sent, delivered, completed, declined, voided. Completed, declined and voided are settled. */
  status?: string;
  /** When the status last changed, as the service says (`sync`). */
  statusAt?: string;
  voidedReason?: string;
  declinedReason?: string;
  /** The last step finished. */
  lastStep?: EnvelopeStep;
  recipients: RecipientOutcome[];
  files: FileRecord[];
  startedAt?: string;
  durationMs?: number;
  apiCalls: number;
  /** Retries made (calls repeated after a failure). */
  retries: number;
  error?: ItemError;
}

/** The outcome of one account. */
/** What a run did with a template kept as code. */
export interface TemplateResult {
  job: string;
  key: string;
  source: SourcePosition;
  state: 'present' | 'absent';
  /**
   * `created`; `updated` (the file's version written: `outside` when it had
   * been changed outside signrun); `up-to-date`; `deleted`;
   * `already-absent`; `failed`.
   */
  outcome: 'created' | 'updated' | 'up-to-date' | 'deleted' | 'already-absent' | 'failed';
  /** The template in the account run against (what `template: <key>` resolved to). */
  templateId?: string;
  outside?: boolean;
  /** What differed before an update, in words. */
  differences?: string[];
  /** Duplicates of its identity (a race's, a lost answer's) deleted. */
  duplicatesDeleted?: string[];
  files: FileRecord[];
  apiCalls: number;
  retries: number;
  error?: ItemError;
}

/** What a run did with one item an account holds (of a kind of the catalogue, resources/resource-kinds.ts). */
export interface AccountItemResult {
  /** Its kind: a name of the catalogue of resource kinds (resources/resource-kinds.ts). */
  kind: string;
  /** Its name (a user: the email; a template: its key in the job file). */
  name: string;
  /** `deleted`: a user closed (DocuSign keeps closed users). */
  outcome: 'created' | 'updated' | 'up-to-date' | 'deleted' | 'already-absent' | 'failed' | 'not-started';
  /** Its id in the account. */
  id?: string;
  /** Updated because it had been changed outside signrun: the job file's version was put back. */
  outside?: boolean;
  /** What differed before the update, account → file. */
  differences?: string[];
  error?: ItemError;
}

export interface AccountResult {
  job: string;
  key: string;
  source: SourcePosition;
  state: 'present' | 'absent';
  /**
   * `created`: created now and awaiting activation by its user (not a failure);
   * `up-to-date`: already exists; `deleted`; `already-absent`;
   * `failed`; `not-started`.
   */
  outcome: 'created' | 'up-to-date' | 'deleted' | 'already-absent' | 'failed' | 'not-started';
  awaitingActivation?: boolean;
  accountId?: string;
  userId?: string;
  files: FileRecord[];
  startedAt?: string;
  durationMs?: number;
  apiCalls: number;
  retries: number;
  error?: ItemError;
  /** What it keeps inside the account, in the order converged (the catalogue's); absent: none kept. */
  contents?: AccountItemResult[];
}
