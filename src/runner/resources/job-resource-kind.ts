import type { AccountClient } from '../../client/esignature-client.js';
import type { ResolvedJob } from '../../jobs/model.js';
import type { JournalProgress } from '../../state/journal-progress.js';
import type { Plan } from '../plan-types.js';
import type { RunEvent } from '../run-events.js';
import type { RunSummary, SummaryCollector, SummaryTotals } from '../run-summary.js';
import type { ResourceKindBase } from './resource-kind.js';
import type { TemplateContext } from '../templates/template-pipeline.js';

// A resource kind whose parent is the job file itself (`parent: 'job'`): its
// things are kept in the account signrun runs against, planned once for all
// the jobs and converged before any envelope starts (envelopes refer to them
// by `<job>/<key>`). The same interface as an account's kinds
// (resource-kind.ts: identity, read, compare, converge, words), with the
// contexts its parent lends: the configured account and the run's own
// output folder, instead of an account entry's account. The planner
// (plan.ts), the run (run.ts), `signrun plan`'s lines, the console and
// report.json walk the catalogue of such kinds (job-resource-kinds.ts)
// without naming one.

/**
 * The field of the plan, the run's summary, its totals and report.json that
 * holds a job kind's plans and results; each kind keeps its records in its
 * own (the shape each has had since it existed, so that `plan --format json`
 * and report.json stay as they are).
 */
export type JobKindField = 'templates';

/** What a job kind plans with. */
export interface JobPlanContext {
  /** Logged in to the account run against (absent: offline, or the run's own empty sandbox: everything is created). */
  account?: AccountClient;
  /** What this state's journal says (the kind reads its own records of it). */
  journal?: JournalProgress;
  /** Other runners may race this one: a creation is confirmed by listing again. */
  arbitrate: boolean;
  /** Keep the resolved declaration on each plan (the run does; `signrun plan` need not). */
  keepItems?: boolean;
}

/**
 * What the run lends a job kind's `converge`: what converging a template of
 * the job file needs (the account, the output folder, the journal, the
 * clock, racing runners: templates/template-pipeline.ts), and the run's
 * bookkeeping.
 */
export interface JobConvergeContext extends TemplateContext {
  collector: SummaryCollector;
  emit: (event: RunEvent) => void;
  /** The run was asked to stop: nothing more is started. */
  interrupted: () => boolean;
}

/** What a job kind's item counts in totals. */
type JobTotals<F extends JobKindField> = NonNullable<SummaryTotals[F]>;

/** The console's colours a kind's lines use. */
export interface ConsoleWords {
  red: (text: string) => string;
  /** Makes a name from the job file or the service safe for a terminal. */
  safe: (text: string) => string;
}

/**
 * One kind of thing a job file keeps in the account signrun runs against.
 * `F`: its field in the plan, the summary and report.json.
 */
export interface JobResourceKind<F extends JobKindField = JobKindField> extends ResourceKindBase {
  readonly parent: 'job';
  readonly field: F;
  /** How many a job keeps (0: the kind takes no part, and nothing is read for it). */
  count(job: ResolvedJob): number;
  /**
   * The one decision for each the jobs keep: read from the account (in a
   * batch), compared with the file and the kind's own journal records.
   * Returns the plans, in job-file order, and the reads made.
   */
  plan(jobs: readonly ResolvedJob[], ctx: JobPlanContext): Promise<{ plans: Plan[F]; reads: number }>;
  /**
   * Executes the plans, exactly once, each step journalled (in the kind's
   * own record shape) after the service answered; records each result with
   * the collector. Never throws. Returns each converged item's id in the
   * account by its `<job>/<key>`, for the envelopes that refer to it.
   */
  converge(plans: Plan[F], ctx: JobConvergeContext): Promise<Map<string, string>>;
  /** `signrun plan`'s lines for one plan, its name padded to `width` (a run converges these before any envelope). */
  planLines(plan: Plan[F][number], width: number): string[];
  /** The console's summary part for its totals: `template(s): 1 created`. */
  summaryText(totals: JobTotals<F>, words: ConsoleWords): string;
  /** The console's lines for its results worth a line (created, updated, deleted, failed). */
  resultLines(results: NonNullable<RunSummary[F]>, words: ConsoleWords): string[];
}
