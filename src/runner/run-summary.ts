import type { RateLimitInfo } from '../client/rate-limit.js';
import type { FileRecord } from '../output/output-folder.js';
import type { SourcePosition } from '../jobs/model.js';
import type { EnvelopeStep, RunEvent } from './run-events.js';
import type { CallBudgetReport } from './call-budget.js';

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
  roleName?: string;
  clientUserId?: string;
  routingOrder?: string;
  /** `ready`: a signing address is in signing.json; `waiting-for-turn`: ask later with `sign-url`; `remote`: signs from the service's email. */
  signing: 'ready' | 'waiting-for-turn' | 'remote';
}

/** The outcome of one envelope. */
export interface EnvelopeResult {
  job: string;
  key: string;
  source: SourcePosition;
  row?: number;
  /** `succeeded`: every step done; `failed`: see error; `not-started`: the run was interrupted first. */
  outcome: 'succeeded' | 'failed' | 'not-started';
  /** True when an envelope.json of an earlier run already held this envelope: it was not created again. */
  adopted?: boolean;
  envelopeId?: string;
  status?: string;
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
}

/** API use of the whole run. */
export interface ApiUsage {
  /** Calls that reached the wire (retries included). */
  calls: number;
  retries: number;
  byOperation: Record<string, number>;
  /** Answers with a 4xx/5xx status or no answer. */
  failedCalls: number;
  /** The last rate-limit headers seen: what remained. */
  rateLimit?: RateLimitInfo;
}

/** Everything reporters and the exit code read: one object, built from the run's events. */
export interface RunSummary {
  runId: string;
  target: RunTarget;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  interrupted: boolean;
  concurrency: number;
  outDir: string;
  envelopes: EnvelopeResult[];
  accounts: AccountResult[];
  api: ApiUsage;
  /** The hourly call budget (`--max-calls-per-hour`, or the service's limit when it ran out). Absent when neither applied. */
  callBudget?: CallBudgetReport;
}

/** Counts per outcome, for the console and report.md. */
export interface SummaryTotals {
  envelopes: { total: number; succeeded: number; failed: number; notStarted: number; waitingForTurn: number };
  accounts: {
    total: number;
    created: number;
    upToDate: number;
    deleted: number;
    alreadyAbsent: number;
    failed: number;
    notStarted: number;
  };
}

export function totalsOf(summary: Pick<RunSummary, 'envelopes' | 'accounts'>): SummaryTotals {
  const e = summary.envelopes;
  const a = summary.accounts;
  return {
    envelopes: {
      total: e.length,
      succeeded: e.filter((x) => x.outcome === 'succeeded').length,
      failed: e.filter((x) => x.outcome === 'failed').length,
      notStarted: e.filter((x) => x.outcome === 'not-started').length,
      waitingForTurn: e.reduce((n, x) => n + x.recipients.filter((r) => r.signing === 'waiting-for-turn').length, 0),
    },
    accounts: {
      total: a.length,
      created: a.filter((x) => x.outcome === 'created').length,
      upToDate: a.filter((x) => x.outcome === 'up-to-date').length,
      deleted: a.filter((x) => x.outcome === 'deleted').length,
      alreadyAbsent: a.filter((x) => x.outcome === 'already-absent').length,
      failed: a.filter((x) => x.outcome === 'failed').length,
      notStarted: a.filter((x) => x.outcome === 'not-started').length,
    },
  };
}

/** Exit code of a finished run (DESIGN.md): 130 interrupted, 1 when anything failed, else 0. */
export function exitCodeOf(summary: RunSummary): number {
  if (summary.interrupted) return 130;
  // Work left undone for lack of calls: not a success, and the report says when to resume.
  if (summary.callBudget?.exhausted) return 1;
  const t = totalsOf(summary);
  return t.envelopes.failed > 0 || t.accounts.failed > 0 ? 1 : 0;
}

/**
 * Collects run events into one RunSummary. Per-item call and retry counts
 * come from the `tag` (`<job>/<key>`) the runner puts on each request.
 */
export class SummaryCollector {
  #summary: RunSummary;
  #callsByTag = new Map<string, { calls: number; retries: number }>();

  constructor(init: { runId: string; target: RunTarget; startedAt: string; concurrency: number; outDir: string }) {
    this.#summary = {
      ...init,
      endedAt: init.startedAt,
      durationMs: 0,
      interrupted: false,
      envelopes: [],
      accounts: [],
      api: { calls: 0, retries: 0, byOperation: {}, failedCalls: 0 },
    };
  }

  /** Calls and retries seen so far for `<job>/<key>`. */
  usageOf(tag: string): { calls: number; retries: number } {
    return this.#callsByTag.get(tag) ?? { calls: 0, retries: 0 };
  }

  readonly listener = (event: RunEvent): void => {
    const s = this.#summary;
    switch (event.type) {
      case 'request': {
        s.api.calls += 1;
        s.api.byOperation[event.operation] = (s.api.byOperation[event.operation] ?? 0) + 1;
        if (event.status === undefined || event.status >= 400) s.api.failedCalls += 1;
        if (event.rateLimit) s.api.rateLimit = event.rateLimit;
        if (event.tag !== undefined) this.#usage(event.tag).calls += 1;
        break;
      }
      case 'retry':
        s.api.retries += 1;
        if (event.tag !== undefined) this.#usage(event.tag).retries += 1;
        break;
      case 'envelope:done':
        s.envelopes.push(event.result);
        break;
      case 'account:done':
        s.accounts.push(event.result);
        break;
      case 'interrupt':
        s.interrupted = true;
        break;
      case 'budget':
        s.callBudget = event.callBudget;
        break;
      case 'run:end':
        s.endedAt = event.endedAt;
        s.durationMs = Date.parse(event.endedAt) - Date.parse(s.startedAt);
        s.interrupted = s.interrupted || event.interrupted;
        break;
      default:
        break;
    }
  };

  #usage(tag: string): { calls: number; retries: number } {
    let u = this.#callsByTag.get(tag);
    if (!u) {
      u = { calls: 0, retries: 0 };
      this.#callsByTag.set(tag, u);
    }
    return u;
  }

  /** The summary, items in the order of the job files. */
  summary(order: (item: { job: string; key: string }) => number): RunSummary {
    const s = this.#summary;
    s.envelopes.sort((a, b) => order(a) - order(b));
    s.accounts.sort((a, b) => order(a) - order(b));
    return s;
  }
}
