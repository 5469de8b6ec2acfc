import type { RateLimitInfo } from '../client/rate-limit.js';
import type { RunEvent } from './run-events.js';
import type { AccountResult, EnvelopeResult, RunTarget, TemplateResult } from './run-results.js';
export { placeOfEnvelope } from './run-results.js';
import type { CallBudgetReport } from './call-budget.js';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { ResultSpool } from '../output/result-spool.js';
import { resultSpoolFileName } from '../output/output-paths.js';
import type { SignrunError } from '../errors/signrun-error.js';
import { identityOf } from './identity.js';
import { ExitCode, type ExitCodeValue } from '../errors/catalogue-entry.js';

// The results' types live in run-results.ts (run-events.ts needs them too, and
// a module pair importing each other is a cycle); re-exported for readers of the summary.
export type {
  AccountResult,
  EnvelopeResult,
  ItemError,
  RecipientOutcome,
  RunTarget,
  TemplateResult,
} from './run-results.js';

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

/**
 * Everything reporters and the exit code read. The envelopes' results are
 * not held in memory (a run's memory stays flat however many envelopes it
 * has): they are read back, in job-file order, from the run's spool.
 */
/** The signrun command whose summary it is: its reports say so. */
export type SummaryCommand = 'run' | 'sync';

export interface RunSummary {
  runId: string;
  /** Absent in summaries made before reports named their command: `run`. */
  command?: SummaryCommand;
  target: RunTarget;
  startedAt: string;
  endedAt: string;
  durationMs: number;
  interrupted: boolean;
  concurrency: number;
  outDir: string;
  /** Counts per outcome, kept as results came in. */
  totals: SummaryTotals;
  /** The envelopes' results in job-file order; each call reads them afresh. Usable until {@link close}. */
  envelopes: () => AsyncIterable<EnvelopeResult>;
  /** The accounts' results in job-file order (accounts are few: kept in memory). */
  accounts: AccountResult[];
  /** The results of templates kept as code, in job-file order (absent: the jobs have none). */
  templates?: TemplateResult[];
  api: ApiUsage;
  /** The hourly call budget (`--max-calls-per-hour`, or the service's limit when it ran out). Absent when neither applied. */
  callBudget?: CallBudgetReport;
  /** sync: where the form data of the envelopes it collected came from. Absent in a run's summary. */
  formData?: FormDataSources;
  /** Releases the results spool (its file is already gone from the folder). Call once the reports are written. */
  close: () => Promise<void>;
  /**
   * Set when the output or state folder refused a write (SR_OUTPUT_WRITE):
   * the run started nothing new from then on. The caller writes the reports
   * it still can, then ends with this error.
   */
  outputFailure?: SignrunError;
}

/**
 * Where a sync took the form data (form-data.json) of the completed envelopes
 * it collected, so that report.json counts what cost a call and what did not.
 */
export interface FormDataSources {
  /** From the status listing's recipients with their tabs (`include=recipients,tabs`): no call. */
  fromListing: number;
  /** From what `signrun listen` kept of Connect messages: no call. */
  fromConnect: number;
  /** One read of the recipients with their tabs each (listRecipients). */
  readPerEnvelope: number;
  /** Whether the status listing carried the recipients' tabs; absent when no listing was made. */
  listingCarriedTabs?: boolean;
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
  /** Templates kept as code (absent: none). */
  templates?: {
    total: number;
    created: number;
    updated: number;
    upToDate: number;
    deleted: number;
    alreadyAbsent: number;
    failed: number;
  };
}

/** Totals of nothing. */
export function emptyTotals(): SummaryTotals {
  return {
    envelopes: { total: 0, succeeded: 0, failed: 0, notStarted: 0, waitingForTurn: 0 },
    accounts: { total: 0, created: 0, upToDate: 0, deleted: 0, alreadyAbsent: 0, failed: 0, notStarted: 0 },
  };
}

/** Counts one envelope's result into `totals`. */
export function countEnvelope(totals: SummaryTotals, e: EnvelopeResult): void {
  const t = totals.envelopes;
  t.total += 1;
  if (e.outcome === 'succeeded') t.succeeded += 1;
  else if (e.outcome === 'failed') t.failed += 1;
  else t.notStarted += 1;
  for (const r of e.recipients) if (r.signing === 'waiting-for-turn') t.waitingForTurn += 1;
}

const accountCounter = {
  created: 'created',
  'up-to-date': 'upToDate',
  deleted: 'deleted',
  'already-absent': 'alreadyAbsent',
  failed: 'failed',
  'not-started': 'notStarted',
} as const satisfies Record<AccountResult['outcome'], keyof SummaryTotals['accounts']>;

/** Counts one account's result into `totals`. */
export function countAccount(totals: SummaryTotals, a: AccountResult): void {
  totals.accounts.total += 1;
  totals.accounts[accountCounter[a.outcome]] += 1;
}

const templateCounter = {
  created: 'created',
  updated: 'updated',
  'up-to-date': 'upToDate',
  deleted: 'deleted',
  'already-absent': 'alreadyAbsent',
  failed: 'failed',
} as const satisfies Record<TemplateResult['outcome'], keyof NonNullable<SummaryTotals['templates']>>;

/** Counts one template's result into `totals`. */
export function countTemplate(totals: SummaryTotals, t: TemplateResult): void {
  const counts = (totals.templates ??= {
    total: 0,
    created: 0,
    updated: 0,
    upToDate: 0,
    deleted: 0,
    alreadyAbsent: 0,
    failed: 0,
  });
  counts.total += 1;
  counts[templateCounter[t.outcome]] += 1;
}

/** Totals of results in hand (merged reports, tests). */
export function totalsOf(items: {
  envelopes: Iterable<EnvelopeResult>;
  accounts: Iterable<AccountResult>;
}): SummaryTotals {
  const totals = emptyTotals();
  for (const e of items.envelopes) countEnvelope(totals, e);
  for (const a of items.accounts) countAccount(totals, a);
  return totals;
}

/**
 * How a run ended, in the words every reader uses: `interrupted` (Ctrl-C,
 * SIGTERM), `budget-spent` (the hourly call budget stopped it starting work:
 * items were left, the report says when to resume), `failed` (an envelope or
 * an account failed), `succeeded`.
 */
export type RunVerdict = 'interrupted' | 'budget-spent' | 'failed' | 'succeeded';

/** What a verdict reads: a live run's summary and a report.json (one run's, or merged shards') both have it. */
export type VerdictSource = Pick<RunSummary, 'interrupted' | 'callBudget' | 'totals'>;

/** The exit code of each verdict (DESIGN.md): 130 interrupted, 1 when work failed or was left for lack of calls, else 0. */
export const verdictExitCodes: Readonly<Record<RunVerdict, ExitCodeValue>> = Object.freeze({
  interrupted: ExitCode.interrupted,
  'budget-spent': ExitCode.failed,
  failed: ExitCode.failed,
  succeeded: ExitCode.ok,
});

/**
 * The one verdict of a run, first match wins: interrupted, then budget
 * spent (work left undone for lack of calls is not a success), then any
 * failure. `run`, `report merge`, report.md and the console all read it, so
 * the exit code and the words people see cannot disagree.
 */
export function verdictOf(summary: VerdictSource): RunVerdict {
  if (summary.interrupted) return 'interrupted';
  if (summary.callBudget?.exhausted) return 'budget-spent';
  const t = summary.totals;
  return t.envelopes.failed > 0 || t.accounts.failed > 0 || (t.templates?.failed ?? 0) > 0 ? 'failed' : 'succeeded';
}

/** Exit code of a finished run or a report: {@link verdictOf}'s, through {@link verdictExitCodes}. */
export function exitCodeOf(summary: VerdictSource): ExitCodeValue {
  return verdictExitCodes[verdictOf(summary)];
}

/** Options of {@link SummaryCollector}. */
export interface SummaryCollectorInit {
  runId: string;
  command?: SummaryCommand;
  target: RunTarget;
  startedAt: string;
  concurrency: number;
  outDir: string;
  /** Where the envelopes' results go, numbered in job-file order (0 … envelopes-1). */
  spool: ResultSpool<EnvelopeResult>;
}

/**
 * A collector whose envelope results wait in a spool file in the output
 * folder (`.signrun-results-<uuid>.jsonl`, result-spool.ts), as `run` and
 * `sync` keep them: `count` results, numbered 0 … count-1.
 */
export async function spooledCollector(
  init: Omit<SummaryCollectorInit, 'spool'>,
  count: number,
): Promise<{ spool: ResultSpool<EnvelopeResult>; collector: SummaryCollector }> {
  const spool = await ResultSpool.create<EnvelopeResult>(
    path.join(init.outDir, resultSpoolFileName(randomUUID())),
    count,
  );
  return { spool, collector: new SummaryCollector({ ...init, spool }) };
}

/**
 * Collects a run into one RunSummary: API use from the run's events,
 * results as the runner hands them over with their place in the job files.
 * Only running counts stay in memory: each envelope's result goes to the
 * spool, and its per-item call counter is dropped once it is done. Per-item
 * call and retry counts come from the `tag` (`<job>/<key>`) the runner puts
 * on each request.
 */
export class SummaryCollector {
  readonly #head: Omit<RunSummary, 'envelopes' | 'accounts' | 'templates' | 'close'>;
  readonly #templates: TemplateResult[] = [];
  readonly #spool: ResultSpool<EnvelopeResult>;
  /** Account results by their place among accounts (few: kept in memory). */
  readonly #accounts = new Map<number, AccountResult>();
  #callsByTag = new Map<string, { calls: number; retries: number }>();

  constructor(init: SummaryCollectorInit) {
    const { spool, ...head } = init;
    this.#spool = spool;
    this.#head = {
      ...head,
      endedAt: init.startedAt,
      durationMs: 0,
      interrupted: false,
      totals: emptyTotals(),
      api: { calls: 0, retries: 0, byOperation: {}, failedCalls: 0 },
    };
  }

  /** Calls and retries seen so far for `<job>/<key>`. */
  usageOf(tag: string): { calls: number; retries: number } {
    return this.#callsByTag.get(tag) ?? { calls: 0, retries: 0 };
  }

  /** The result of the envelope at `index` (job-file order): spooled, counted, its call counter dropped. */
  envelopeDone(index: number, result: EnvelopeResult): void {
    this.#spool.put(index, result);
    countEnvelope(this.#head.totals, result);
    this.#callsByTag.delete(identityOf(result));
  }

  /** True when the envelope at `index` has a result. */
  hasEnvelope(index: number): boolean {
    return this.#spool.has(index);
  }

  /** The result of the account at `index` (job-file order among accounts). */
  accountDone(index: number, result: AccountResult): void {
    this.#accounts.set(index, result);
    countAccount(this.#head.totals, result);
    this.#callsByTag.delete(identityOf(result));
  }

  /** The result of a template kept as code (templates converge one after the other, in job-file order). */
  templateDone(result: TemplateResult): void {
    this.#templates.push(result);
    countTemplate(this.#head.totals, result);
  }

  /** True when the account at `index` has a result. */
  hasAccount(index: number): boolean {
    return this.#accounts.has(index);
  }

  readonly listener = (event: RunEvent): void => {
    const s = this.#head;
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

  /**
   * The summary, once every spooled result is written (to disk, or kept in
   * memory by a spool whose writes failed: the run reports that as
   * `outputFailure`). From then on the spool belongs to the summary: its
   * `close` releases it.
   */
  async summary(): Promise<RunSummary> {
    await this.#spool.flush();
    this.#callsByTag = new Map();
    const spool = this.#spool;
    return {
      ...this.#head,
      envelopes: () => spool.read(),
      accounts: [...this.#accounts].sort(([a], [b]) => a - b).map(([, result]) => result),
      ...(this.#templates.length > 0 ? { templates: [...this.#templates] } : {}),
      close: () => spool.close(),
    };
  }
}
