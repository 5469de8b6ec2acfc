import type { ClientEvent } from '../client/api-request.js';
import type { RateLimitInfo } from '../client/rate-limit.js';
import type { AccountResult, EnvelopeResult, EnvelopeStep, RunTarget, TemplateResult } from './run-results.js';
import type { CallBudgetReport } from './call-budget.js';
import type { HoldStateWarning } from '../state/hold-state.js';

export { envelopeSteps, type EnvelopeStep } from './plan-types.js';

/**
 * What a run emits as it works. One collector (run-summary.ts) turns them
 * into the summary that reporters and the exit code read; the console
 * progress listens too.
 */
export type RunEvent =
  | { type: 'run:start'; runId: string; target: RunTarget; startedAt: string; envelopes: number; accounts: number }
  | { type: 'envelope:start'; job: string; key: string }
  | { type: 'envelope:step'; job: string; key: string; step: EnvelopeStep }
  | { type: 'envelope:done'; result: EnvelopeResult }
  | { type: 'account:start'; job: string; key: string }
  | { type: 'account:done'; result: AccountResult }
  /** A template kept as code converged (created, updated, up to date, deleted) or failed, before any envelope starts. */
  | { type: 'template:done'; result: TemplateResult }
  | (Extract<ClientEvent, { type: 'request' }> & { rateLimit?: RateLimitInfo })
  | Extract<ClientEvent, { type: 'retry' }>
  | { type: 'interrupt' }
  /** The hourly call budget: at the end of a run with `--max-calls-per-hour`, or when it ran out (then the rest was not started). */
  | { type: 'budget'; callBudget: CallBudgetReport }
  /**
   * `run --spread-over-hours`: the hourly budget is spent; the run waits
   * until `resumeAt` (local clock) and goes on. `windowsLeft`: hourly windows
   * the calls not started yet need, when the window's size is known.
   */
  | { type: 'budget:wait'; resumeAt: string; callsLeft: number; windowsLeft?: number }
  /** Something people should know that is not a failure (a stale lock taken over, a repaired journal). */
  | { type: 'warning'; kind: WarningKind; message: string }
  | { type: 'run:end'; endedAt: string; interrupted: boolean };

/**
 * What a warning is about, decided where the warning is made so that a
 * listener chooses by kind, never by its wording: the state's
 * ({@link HoldStateWarning}), and sync's `listing-too-recent` (DocuSign's
 * polling rule: the last status listing is shown again) and
 * `settled-left-as-is` (an envelope to void or replace is already settled)
 * and `output-not-written` (a job-wide table such as form-data.csv could not
 * be written; the envelopes' own files were) and `status-regression` (the
 * service said an envelope went back, e.g. `sent` after `completed`: not applied)
 * and `earlier-envelope-set-aside` (a key's folder held another envelope's
 * outputs, moved under replaced/ before the new one was made)
 * and `bulk-send-refused` (the service refused a Bulk Send: its rows are sent
 * one by one instead, still once each)
 * and `form-data-read-per-envelope` (sync: the service's status listing left
 * out the recipients' tabs, so each completed envelope's form data cost a call).
 */
export type WarningKind =
  | HoldStateWarning['kind']
  | 'listing-too-recent'
  | 'settled-left-as-is'
  | 'output-not-written'
  | 'status-regression'
  | 'earlier-envelope-set-aside'
  | 'bulk-send-refused'
  | 'form-data-read-per-envelope';

export type RunEventListener = (event: RunEvent) => void;
