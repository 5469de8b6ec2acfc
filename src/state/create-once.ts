import type { Journal } from './journal.js';
import type { EnvelopeProgress } from './journal-progress.js';
import { classifyServiceError, type ServiceErrorVerdict, type ServiceFailure } from '../client/service-error-classes.js';

/** An envelope as a lookup on the service found it. */
export interface FoundEnvelope {
  envelopeId: string;
  /** Its `signrunDigest` custom field, when it has one. */
  digest?: string;
}

/**
 * What `createOnce` needs; the HTTP calls come in as functions, so this
 * module knows nothing of the client (the runner passes its own).
 */
export interface CreateOnceInput {
  /** `<job>/<key>` (see `identityOf`). */
  id: string;
  /** Content digest of what would be sent (see `contentDigest`). */
  digest: string;
  /** See `transactionIdOf`. */
  transactionId: string;
  journal: Journal;
  /** What the journal of earlier runs says of this envelope (`journalProgress(...).envelopes.get(id)`). */
  progress?: EnvelopeProgress;
  /**
   * Asks the service for the envelope carrying this identity (status-changes
   * listing with `custom_field=signrun=<id>`); undefined when there is none.
   */
  lookup(): Promise<FoundEnvelope | undefined>;
  /** Sends the envelope (POST …/envelopes). Not idempotent: called only after a lookup found nothing. */
  create(): Promise<{ envelopeId: string }>;
  /** Describes a thrown error for the classification table (status, errorCode, network). */
  describe(error: unknown): ServiceFailure;
  /** Delay before attempt `attempt + 1` after `error` (backoff, Retry-After…), ms. Default: 250 ms doubled per attempt, at most 8 s. */
  retryDelayMs?: (attempt: number, error: unknown, verdict: ServiceErrorVerdict) => number;
  /** Waits; injectable for tests. Default setTimeout. */
  sleep?: (ms: number) => Promise<void>;
  /** Create and lookup attempts in all. Default 6. */
  maxAttempts?: number;
  /**
   * `always` (default): look the envelope up before the first create, even
   * when the journal records no intent — safe when the state folder was
   * lost, moved, or another tool sent it; costs one call per new envelope.
   * `if-intent`: trust a journal without a `create-intent` and skip that
   * first lookup (the lookup still follows every failed create).
   */
  firstLookup?: 'always' | 'if-intent';
}

/** How `createOnce` ended. */
export type CreateOnceResult =
  | { outcome: 'created'; envelopeId: string; attempts: number }
  | { outcome: 'adopted'; envelopeId: string; from: 'journal' | 'service'; attempts: number }
  /** The envelope exists with another digest: its content changed after it was sent. Nothing was sent; report it. */
  | { outcome: 'drift'; envelopeId: string; sentDigest: string; digest: string; attempts: number };

const defaultDelay = (attempt: number) => Math.min(8_000, 250 * 2 ** (attempt - 1));
const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * Creates an envelope exactly once, whatever fails in between:
 * 1. journalled `created` → adopt it (or report drift);
 * 2. look it up on the service → adopt it if found;
 * 3. journal `create-intent` (fsync'ed), then create, then journal `created`;
 * 4. a failed create is classified: `never-retry` throws; `retry-later`
 *    (rate limit: nothing was done) waits and creates again; `retry-now`
 *    (5xx, reset, time-out: the service MAY have committed) waits and goes
 *    back to 2, so an envelope committed before the connection broke is
 *    adopted, not sent again.
 * Throws the last error when the attempts are spent (the journal then says
 * "intent without answer", and the next run starts at step 2).
 */
export async function createOnce(input: CreateOnceInput): Promise<CreateOnceResult> {
  const max = input.maxAttempts ?? 6;
  const sleep = input.sleep ?? realSleep;
  const delay = input.retryDelayMs ?? ((attempt: number) => defaultDelay(attempt));
  const journalled = input.progress?.created;
  if (journalled) {
    if (journalled.digest !== input.digest) {
      return {
        outcome: 'drift',
        envelopeId: journalled.envelopeId,
        sentDigest: journalled.digest,
        digest: input.digest,
        attempts: 0,
      };
    }
    return { outcome: 'adopted', envelopeId: journalled.envelopeId, from: 'journal', attempts: 0 };
  }
  let needLookup = (input.firstLookup ?? 'always') === 'always' || input.progress?.createIntent !== undefined;
  let intentWritten = false;
  let lastError: unknown;
  for (let attempt = 1; attempt <= max; attempt++) {
    try {
      if (needLookup) {
        const found = await input.lookup();
        if (found) {
          if (found.digest !== undefined && found.digest !== input.digest) {
            return {
              outcome: 'drift',
              envelopeId: found.envelopeId,
              sentDigest: found.digest,
              digest: input.digest,
              attempts: attempt,
            };
          }
          await input.journal.append({
            kind: 'envelope',
            id: input.id,
            step: 'created',
            envelopeId: found.envelopeId,
            digest: input.digest,
            adopted: true,
          });
          return { outcome: 'adopted', envelopeId: found.envelopeId, from: 'service', attempts: attempt };
        }
        needLookup = false;
      }
      if (!intentWritten) {
        await input.journal.append({
          kind: 'envelope',
          id: input.id,
          step: 'create-intent',
          digest: input.digest,
          transactionId: input.transactionId,
        });
        intentWritten = true;
      }
      const created = await input.create();
      await input.journal.append({
        kind: 'envelope',
        id: input.id,
        step: 'created',
        envelopeId: created.envelopeId,
        digest: input.digest,
      });
      return { outcome: 'created', envelopeId: created.envelopeId, attempts: attempt };
    } catch (error) {
      lastError = error;
      // A journal that cannot be written stops everything: going on would lose the record of a send.
      if ((error as { code?: string } | undefined)?.code === 'SR_OUTPUT_WRITE') throw error;
      const verdict = classifyServiceError(input.describe(error));
      if (verdict.class === 'never-retry' || attempt === max) throw error;
      // After retry-now the create may have been committed (or the lookup
      // itself failed): look again before any new create. A rate limit
      // proves nothing was done, so the state of `needLookup` stands.
      if (verdict.class === 'retry-now') needLookup = true;
      await sleep(delay(attempt, error, verdict));
    }
  }
  throw lastError;
}
