import { shownUrl } from '../secret.js';
import type { ResolvedEnvelope, Secret } from '../jobs/model.js';
import type { SigningUrls } from '../config/types.js';
import { noJournal } from './envelopes/envelope-pipeline.js';
import { makePlan } from './plan.js';
import { RequestOrder } from './request-priority.js';
import { ServiceLedger } from './envelopes/service-ledger.js';
import type { DocumentsWhen, EnvelopePlan, Plan } from './plan-types.js';
import type { RunSummary } from './run-summary.js';
import type { RunEvent } from './run-events.js';
import { CallBudget } from './call-budget.js';
import { checkTemplates, definedRoles, PreflightError } from './templates/template-check.js';
import type { JobConvergeContext } from './resources/job-resource-kind.js';
import { jobResourceKinds } from './resources/job-resource-kinds.js';
import { claimsFirst } from './resources/account/account-pipeline.js';
import { templateHomeProblems } from './templates/template-homes.js';
import {
  brandsKeptFor,
  describesSendingAccount,
  lacksBrand,
  resolveBrandNames,
} from './resources/account/account-brand-names.js';
export { PreflightError } from './templates/template-check.js';
import { commandRun, type CommandRunOptions } from './command-run.js';
import { bulkSendGroups, bulkSendProblems, goesInBulk } from './bulk-send/bulk-send-fit.js';
import { runBulkSendPhase } from './bulk-send/bulk-send-phase.js';
import { maxCopiesPerList } from './bulk-send/bulk-send-batches.js';
import { realTiming } from '../client/timing.js';
import { adminBaseOf } from '../client/admin/admin-base.js';
import { organizationAccess } from './organization/admin-access.js';
import { OrganizationRecords } from './organization/organization-record.js';
import { OrganizationRun } from './organization/organization-run.js';
import type { AccountClient } from '../client/esignature-client.js';
import type { Journal } from '../state/journal.js';
import type { JournalProgress } from '../state/journal-progress.js';
import { lacksTemplate, present, workItems, WorkItems, type WorkContext } from './run-work-items.js';

/**
 * Options of {@link run}: those every command on the service takes
 * (command-run.ts: jobs, target, output and state folders, concurrency,
 * signal, events, clock…), and the run's own.
 */
export interface RunOptions extends CommandRunOptions {
  /** For account creation (service-api.md 4.3). */
  distributor?: { code: string; password: Secret };
  /** The main integrator key, for logging in as a subsidiary's user to delete it. */
  integratorKey?: string;
  /** DocuSign's Admin API base, for organisations (client/admin/admin-base.ts); default the root URL's origin's /management. */
  adminBase?: string;
  /** Lifetime the service gives signing addresses, seconds. Default 300 (DocuSign's). */
  viewTtlSeconds?: number;
  /**
   * When embedded signers' addresses are made: `at-send` (default), right
   * after sending; `on-demand`, never at send — signing.json lists them and
   * `links serve` or `sign-url` makes each when the person arrives (two calls
   * per envelope instead of two plus one per signer).
   */
  signingUrls?: SigningUrls;
  /**
   * Hourly call budget (`--max-calls-per-hour`). Default: none of its own;
   * the service's `x-ratelimit-remaining` is always respected. When what is
   * left cannot cover one more item (and the items in flight), the run starts
   * nothing new, finishes what is in flight, and the summary's `callBudget`
   * says when to resume (SR_CALL_BUDGET_SPENT, exit 1).
   */
  maxCallsPerHour?: number;
  /**
   * `run --spread-over-hours`: when the budget is spent, wait for the next
   * hourly window (the service's reset, or the run's own hour) and go on,
   * saying when, instead of stopping with SR_CALL_BUDGET_SPENT.
   */
  spreadOverHours?: boolean;
  /**
   * Let the run take the envelopes over (the CLI does: it has no further use
   * for them). Each job's `envelopes` is emptied when the run starts and each
   * envelope is let go once it has started, so that a long run holds ever
   * fewer envelopes instead of every one to the end. Default false: the jobs
   * are left as given.
   */
  releaseEnvelopes?: boolean;
  /**
   * When documents and certificates are downloaded: `at-send`, right after
   * sending (unsigned copies, as the in-process sandbox's run shows them);
   * `on-completion`, later, signed (`signrun sync`, not this run). Default:
   * `at-send` for an in-process sandbox (it stops with the run, so nothing
   * there can complete), `on-completion` otherwise.
   */
  documents?: DocumentsWhen;
  /**
   * `run --bulk-send`: every forEach envelope goes through DocuSign's Bulk
   * Send (envelopes with `bulkSend: true` in their job file always do).
   * Default false.
   */
  bulkSend?: boolean;
  /** Copies per bulk send list (1 to 1,000, DocuSign's limit). Default 1,000; tests make it small to exercise several lists. */
  bulkListSize?: number;
  /** Called with the plan before it is executed (`signrun run --plan-only` style callers, tests). */
  onPlan?: (plan: Plan) => void;
}

/**
 * The library's run entry, as `signrun run` calls it: log in, read templates
 * and check roles (a problem stops the run before anything is sent), plan
 * (makePlan: the one place that decides, asking the service in batches),
 * then execute the plan — accounts and envelopes with bounded, lazy
 * parallelism over one connection pool. Returns the one summary that reporters and the exit code read;
 * the caller closes it once the reports are written (it holds the results
 * spool). Throws only for what stops the whole run (login refused, preflight).
 */
export async function runJobs(options: RunOptions): Promise<RunSummary> {
  // The envelopes in job-file order, numbered by their place here; a slot is emptied once its envelope started (releaseEnvelopes).
  const envelopes: Array<ResolvedEnvelope | undefined> = options.jobs.flatMap((j) => j.envelopes);
  // Where each job's envelopes start in that list.
  const starts = options.jobs.map((_, j) => options.jobs.slice(0, j).reduce((n, job) => n + job.envelopes.length, 0));
  const rangeOf = (j: number): [number, number] => [starts[j] ?? 0, starts[j + 1] ?? envelopes.length];
  const release = options.releaseEnvelopes === true;
  if (release) for (const job of options.jobs) job.envelopes = [];
  // Envelopes that Bulk Send cannot copy from one model are refused before anything is asked of the service.
  const unfit = bulkSendProblems(bulkSendGroups(present(envelopes), options.bulkSend === true));
  if (unfit.length > 0) throw new PreflightError(unfit);
  const bulkInPlay = envelopes.some((e) => e !== undefined && goesInBulk(e, options.bulkSend === true));
  const envelopeCount = envelopes.length;
  const accountCount = options.jobs.reduce((n, j) => n + j.accounts.length, 0);
  // The hourly call budget: created once the run knows when it started (its
  // hour is the run's), before the first request, which it counts.
  let budget: CallBudget | undefined;

  return commandRun(
    options,
    {
      report: 'run',
      command: 'signrun run',
      envelopes: envelopeCount,
      accounts: accountCount,
      observe: (event) => {
        if (event.type === 'request') budget?.observe(event.rateLimit);
      },
    },
    async ({ runId, startedAt, now, concurrency, out, client, collector, spool, state, emit, interrupted, finish }) => {
      const callBudget = new CallBudget(options.maxCallsPerHour, startedAt, {
        spread: options.spreadOverHours === true,
      });
      budget = callBudget;
      const journal = state?.journal;
      const progress = state?.progress;
      const account = await client.login({ tag: 'login' });
      // The role names of the job files' templates: where a composite envelope's roles go.
      const roles = definedRoles(options.jobs);
      await refuseUnsendable(options.jobs, present(envelopes), account, roles);

      // Plan: the one place that decides. The service is asked in batches
      // (one paged listing per job); the same listing confirms drafts later.
      const arbitrate = !options.target.sandbox;
      // The order requests take for a free connection: usual, then the last stretch's (request-priority.ts).
      const order = new RequestOrder((map) => client.reorderWaiting(map));
      const { ledger, bulkLedger } = ledgersOf(account, {
        arbitrate,
        bulkInPlay,
        concurrency,
        signal: options.signal,
        order,
      });
      if (ledger && progress) for (const p of progress.envelopes.values()) ledger.retire(p.replaced);
      // Organisations kept as code: their Admin API, and what they list (read once, by the plan).
      const organizations = keepsOrganizations(options.jobs)
        ? organizationAccess({
            client,
            auth: options.target.auth,
            base: options.adminBase ?? adminBaseOf({ rootUrl: options.target.rootUrl }),
            userId: account.userId,
            integratorKey: options.integratorKey,
          })
        : undefined;
      const organizationRecords = new OrganizationRecords();
      const plan = await makePlan({
        ...(organizations ? { organizations, organizationRecords } : {}),
        jobs: options.jobs.map((job, j) => ({ ...job, envelopes: [...present(envelopes.slice(...rangeOf(j)))] })),
        account,
        ...(bulkLedger ? { ledger: bulkLedger } : {}),
        ...(progress ? { journal: progress } : {}),
        arbitrate,
        documents: options.documents ?? (options.target.sandbox ? 'at-send' : 'on-completion'),
        keepItems: true,
        now: now(),
        ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
        ...(options.integratorKey ? { integratorKey: options.integratorKey } : {}),
      });
      options.onPlan?.(plan);
      if (ledger) for (const [job, drafts] of draftsByJob(plan)) ledger.expectDrafts(job, drafts);
      // The plan now holds the envelopes: the run's own list lets them go (its slots too: 800 KB at 100,000).
      if (release) envelopes.length = 0;

      // What the job files keep in this account first (templates kept as code): envelopes may use them.
      const templateIds = await convergeJobResources(plan, {
        account,
        out,
        rootUrl: shownUrl(options.target.rootUrl), // stored in template.json
        now,
        journal: journal ?? noJournal,
        arbitrate,
        usageOf: (tag) => collector.usageOf(tag),
        collector,
        emit,
        interrupted,
      });
      pointAtTemplates(plan, templateIds, roles);
      const work = new WorkItems({
        plan,
        client,
        account,
        out,
        rootUrl: shownUrl(options.target.rootUrl),
        inProcessSandbox: options.target.sandbox === true,
        collector,
        spool,
        ...(journal ? { journal } : {}),
        ...(progress ? { progress } : {}),
        ...(ledger ? { ledger } : {}),
        emit,
        now,
        delay: options.timing?.delay ?? realTiming.delay,
        interrupted,
        // --concurrency bounds the requests in flight; drafts waiting for their confirmation hold none (run-work-items.ts).
        inProgress: envelopesInProgress(concurrency, arbitrate, options.signingUrls),
        order,
        callBudget,
        release,
        envelopeCount,
        ...workOptionsOf(options),
        ...(organizations
          ? {
              organizations: new OrganizationRun(
                organizations,
                organizationRecords,
                plan.items.filter((i) => i.kind === 'account'),
                options.timing?.delay ?? realTiming.delay,
                options.signal,
              ),
            }
          : {}),
      });
      const ranFirst = await convergeBrandAccountsFirst(plan, work, account, interrupted);
      if (bulkLedger && bulkInPlay && !interrupted())
        await sendInBulk(options, plan, {
          account,
          ledger: bulkLedger,
          journal,
          progress,
          arbitrate,
          emit,
          now,
          runId,
        });
      // After the bulk phase (it decides again for the envelopes it sent); the accounts run first are done.
      const items = workItems(plan);
      // Accounts come first in the list: the walk stops at the first envelope rather than make every envelope's item.
      if (ranFirst.size > 0)
        for (const item of items) {
          if (item.kind !== 'account') break;
          if (ranFirst.has(item.plan.identity)) items.release(item);
        }
      // The work items hold the envelopes now, each let go once started.
      if (release) releasePlannedEnvelopes(plan);
      await work.run(items);
      if (!callBudget.exhausted && (options.maxCallsPerHour !== undefined || options.spreadOverHours === true))
        emit({ type: 'budget', callBudget: callBudget.report() });
      const summary = await finish();
      const failure = work.outputFailure;
      if (failure) summary.outputFailure = failure;
      return summary;
    },
  );
}

/**
 * Drops the envelope items from the plan: the run's work items hold them
 * (and each envelope's model), each let go once started. Otherwise the
 * plan, which lives to the end of the run, kept every envelope of the job
 * files and its decision, and the run's memory grew with its rows (issue
 * 37, item 3).
 */
function releasePlannedEnvelopes(plan: Plan): void {
  plan.items = plan.items.filter((item) => item.kind !== 'envelope');
}

/** What executing the items takes from the run's options. */
function workOptionsOf(
  options: RunOptions,
): Pick<WorkContext, 'viewTtlSeconds' | 'signingUrls' | 'distributor' | 'integratorKey' | 'signal'> {
  return {
    viewTtlSeconds: options.viewTtlSeconds ?? 300,
    ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
    ...(options.distributor ? { distributor: options.distributor } : {}),
    ...(options.integratorKey ? { integratorKey: options.integratorKey } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  };
}

/** The envelopes that go through DocuSign's Bulk Send (bulk-send-phase.ts), before the others. */
async function sendInBulk(
  options: RunOptions,
  plan: Plan,
  run: {
    account: AccountClient;
    ledger: ServiceLedger;
    journal: Journal | undefined;
    progress: JournalProgress | undefined;
    arbitrate: boolean;
    emit: (event: RunEvent) => void;
    now: () => Date;
    runId: string;
  },
): Promise<void> {
  const { account, ledger, journal, progress, emit, now, runId } = run;
  await runBulkSendPhase(plan, {
    all: options.bulkSend === true,
    account,
    ledger,
    journal: journal ?? noJournal,
    ...(progress ? { progress } : {}),
    sources: {
      arbitrate: run.arbitrate,
      documents: plan.documents,
      now: now(),
      ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
      ...(progress ? { journal: progress } : {}),
      ledger,
    },
    emit,
    sendable: (envelope) => !lacksTemplate(envelope) && !lacksBrand(envelope),
    delay: options.timing?.delay ?? realTiming.delay,
    ...(options.signal ? { signal: options.signal } : {}),
    runId,
    listSize: Math.max(1, Math.min(options.bulkListSize ?? maxCopiesPerList, maxCopiesPerList)),
  });
}

/**
 * What the service would refuse, before anything is sent: a role or a tab
 * label a template lacks, a brand the account lacks (unless an entry for
 * this very account keeps it, and may create it), a template of the file
 * that only other accounts' entries list. Throws PreflightError.
 */
async function refuseUnsendable(
  jobs: RunOptions['jobs'],
  envelopes: Iterable<ResolvedEnvelope>,
  account: AccountClient,
  roles: Map<string, string[]>,
): Promise<void> {
  const all = [...envelopes];
  const { problems } = await checkTemplates(all, account, roles);
  // `brand: <brandName>`: its brandId in this account (account-brand-names.ts).
  const pendingBrands = brandsKeptFor(
    jobs.flatMap((j) => j.accounts),
    account,
  );
  problems.push(...(await resolveBrandNames(all, account, pendingBrands)).problems);
  problems.push(...templateHomeProblems(all, jobs, account.accountId));
  if (problems.length > 0) throw new PreflightError(problems);
}

/**
 * Envelopes in progress at once. Without confirmations, one per connection.
 * With them, a draft waits for its gathered listing holding no connection:
 * at send an envelope holds one for four of its five round trips and 4 × C
 * keep the C connections busy; on demand it holds one for two of three plus
 * the wait, and 4 × C left about 2 of 16 connections idle, 8 × C about 1
 * (BENCHMARKS.md, s47-speed-runner and s48-runner). The run's last that
 * many start together (run-work-items.ts, the last stretch).
 */
function envelopesInProgress(concurrency: number, arbitrate: boolean, signingUrls: SigningUrls | undefined): number {
  if (!arbitrate) return concurrency;
  return concurrency * (signingUrls === 'on-demand' ? 8 : 4);
}

/**
 * The service's listing the run decides and confirms drafts with (when
 * runners may race), and the one Bulk Send finds its copies in (even in a
 * run's own in-process sandbox).
 */
function ledgersOf(
  account: AccountClient,
  run: {
    arbitrate: boolean;
    bulkInPlay: boolean;
    concurrency: number;
    signal: AbortSignal | undefined;
    order: RequestOrder;
  },
): { ledger?: ServiceLedger; bulkLedger?: ServiceLedger } {
  const signal = run.signal ? { signal: run.signal } : {};
  // The signal stops its listings between pages (SIGTERM, Ctrl-C: client/listing-pages.ts).
  const ledger = run.arbitrate
    ? new ServiceLedger(account, {
        ...signal,
        // Drafts are answered a few at a time: a confirmation listing waits (at most 100 ms) until as
        // many share it as there are connections, which makes one listing do for many (issue 24).
        gather: { callers: run.concurrency * 2, ms: 250 },
        listingPriority: () => run.order.of('listing'),
      })
    : undefined;
  const bulkLedger = ledger ?? (run.bulkInPlay ? new ServiceLedger(account, signal) : undefined);
  return { ...(ledger ? { ledger } : {}), ...(bulkLedger ? { bulkLedger } : {}) };
}

/**
 * Per job, the drafts the plan makes, each confirmed by one listing: its
 * envelopes' drafts and its new accounts' claims (resources/account/account-pipeline.ts).
 */
function draftsByJob(plan: Plan): Map<string, number> {
  const drafts = new Map<string, number>();
  for (const item of plan.items) {
    const claims = item.kind === 'account' && claimsFirst(item.decision);
    if (claims || (item.kind === 'envelope' && item.steps.includes('draft')))
      drafts.set(item.job, (drafts.get(item.job) ?? 0) + 1);
  }
  return drafts;
}

/**
 * Envelopes naming a brand that an entry for this very account keeps
 * (`brand:`) but the account lacks: that entry converges first (it creates
 * the brand), then the names are looked up again, before any envelope is
 * sent. A brand still missing fails the envelopes that name it
 * (SR_BRAND_NOT_IN_ACCOUNT), unsent. Returns the accounts run.
 */
async function convergeBrandAccountsFirst(
  plan: Plan,
  work: WorkItems,
  account: AccountClient,
  interrupted: () => boolean,
): Promise<Set<string>> {
  const awaitingBrand = plan.items.filter(
    (i): i is EnvelopePlan & { envelope: ResolvedEnvelope } =>
      i.kind === 'envelope' && i.envelope !== undefined && lacksBrand(i.envelope),
  );
  const ranFirst = new Set<string>();
  if (awaitingBrand.length === 0 || interrupted()) return ranFirst;
  for (const item of workItems(plan))
    if (item.kind === 'account' && describesSendingAccount(item.plan.account, account)) {
      ranFirst.add(item.plan.identity);
      await work.runAccount(item);
    }
  await resolveBrandNames(
    awaitingBrand.map((i) => i.envelope),
    account,
  );
  return ranFirst;
}

/**
 * Converges what the job files keep in the account run against, each kind
 * of the job catalogue (job-resource-kinds.ts) in its order, before any
 * envelope (envelopes may use them). Returns each converged item's id in
 * this account by its `<job>/<key>`.
 */
async function convergeJobResources(plan: Plan, ctx: JobConvergeContext): Promise<Map<string, string>> {
  const ids = new Map<string, string>();
  for (const kind of jobResourceKinds)
    for (const [identity, id] of await kind.converge(plan[kind.field], ctx)) ids.set(identity, id);
  return ids;
}

/**
 * `template: <key>` (and a key among `templates:`) is the template's id in
 * this account: the plan's envelopes are pointed at the converged templates,
 * and a composite's reference gets the role names the job files define.
 */
function pointAtTemplates(plan: Plan, templateIds: ReadonlyMap<string, string>, roles: Map<string, string[]>): void {
  for (const item of plan.items) {
    if (item.kind !== 'envelope' || !item.envelope) continue;
    const { envelope } = item;
    if (envelope.templateKey !== undefined) {
      const templateId = templateIds.get(`${item.job}/${envelope.templateKey}`);
      if (templateId) envelope.templateId = templateId;
    }
    for (const ref of envelope.templateRefs ?? []) {
      if (ref.key === undefined) continue;
      const templateId = templateIds.get(`${item.job}/${ref.key}`);
      if (templateId) ref.templateId = templateId;
      ref.roleNames = roles.get(`${item.job}/${ref.key}`) ?? [];
    }
  }
}

/** Whether a job keeps an organisation's accounts or users (DocuSign's Admin API). */
function keepsOrganizations(jobs: RunOptions['jobs']): boolean {
  return jobs.some((j) => j.organization !== undefined || j.accounts.some((a) => a.organization !== undefined));
}

/** The same function under its earlier name, for library users of 0.1. */
export const run = runJobs;
