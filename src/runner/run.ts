import { shownUrl } from '../secret.js';
import type { ResolvedAccount, ResolvedEnvelope, Secret } from '../jobs/model.js';
import type { SigningUrls } from '../config/types.js';
import { SignrunError } from '../errors/signrun-error.js';
import { runAccount } from './resources/account-pipeline.js';
import { noJournal, runEnvelope } from './envelopes/envelope-pipeline.js';
import { makePlan } from './plan.js';
import { ServiceLedger } from './envelopes/service-ledger.js';
import type { AccountPlan, DocumentsWhen, EnvelopePlan, Plan } from './plan-types.js';
import type { AccountResult, EnvelopeResult, RunSummary, SummaryCollector } from './run-summary.js';
import type { RunEvent } from './run-events.js';
import { scheduleLazily } from './schedule.js';
import { CallBudget } from './call-budget.js';
import { checkTemplates, definedRoles, PreflightError } from './templates/template-check.js';
import { runTemplate, type TemplateContext } from './templates/template-pipeline.js';
import { templateHomeProblems } from './templates/template-homes.js';
import {
  brandMissingMessage,
  brandsKeptFor,
  describesSendingAccount,
  lacksBrand,
  resolveBrandNames,
} from './resources/account-brand-names.js';
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

/** An item of the plan to execute, with its place in the job files (among envelopes, or among accounts). */
type WorkItem =
  | { kind: 'envelope'; plan: EnvelopePlan & { envelope: ResolvedEnvelope }; index: number }
  | { kind: 'account'; plan: AccountPlan & { account: ResolvedAccount }; index: number };

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
      const { problems } = await checkTemplates(present(envelopes), account, roles);
      // `brand: <brandName>`: its brandId in this account, before anything is sent (account-brand-names.ts);
      // a brand that an entry for this very account keeps may be created by this run (looked up again below).
      const pendingBrands = brandsKeptFor(
        options.jobs.flatMap((j) => j.accounts),
        account,
      );
      problems.push(...(await resolveBrandNames(present(envelopes), account, pendingBrands)).problems);
      // A template of the file that only other accounts' entries list is not in this account: refused before sending.
      problems.push(...templateHomeProblems(present(envelopes), options.jobs, account.accountId));
      if (problems.length > 0) throw new PreflightError(problems);

      // Plan: the one place that decides. The service is asked in batches
      // (one paged listing per job); the same listing confirms drafts later.
      const arbitrate = !options.target.sandbox;
      // The signal stops its listings between pages (SIGTERM, Ctrl-C: client/listing-pages.ts).
      const ledger = arbitrate
        ? new ServiceLedger(account, {
            ...(options.signal ? { signal: options.signal } : {}),
            // Drafts are answered a few at a time: a confirmation listing waits (at most 100 ms) until as
            // many share it as there are connections, which makes one listing do for many (issue 24).
            gather: { callers: concurrency * 2, ms: 250 },
          })
        : undefined;
      // Bulk Send finds its copies by identity in the listing, even in a run's own in-process sandbox.
      const bulkLedger =
        ledger ??
        (bulkInPlay ? new ServiceLedger(account, options.signal ? { signal: options.signal } : {}) : undefined);
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
      const organizationRun = organizations
        ? new OrganizationRun(
            organizations,
            organizationRecords,
            plan.items.filter((i) => i.kind === 'account'),
            options.timing?.delay ?? realTiming.delay,
            options.signal,
          )
        : undefined;
      // The plan now holds the envelopes: the run's own list lets them go.
      if (release) envelopes.fill(undefined);

      // Templates kept as code first, one after the other (they are few): envelopes may use them.
      const templateIds = await convergeTemplatesAsCode(plan, {
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
      const usageOf = (tag: string) => collector.usageOf(tag);
      // The output folder or the state folder refused a write (disk full, a
      // file size limit): nothing new is started, since its outputs could not
      // be kept either; the reports are still written where the disk allows.
      let outputFailure: SignrunError | undefined;
      const noteOutput = (error: { code: string; message: string } | undefined): void => {
        if (error?.code === 'SR_OUTPUT_WRITE') outputFailure ??= new SignrunError('SR_OUTPUT_WRITE', error.message);
      };
      const runAccountItem = async (item: Extract<WorkItem, { kind: 'account' }>): Promise<void> => {
        const { account: resolved } = item.plan;
        emit({ type: 'account:start', job: resolved.job, key: resolved.key });
        const result = await runAccount(item.plan, {
          ...(progress
            ? { progressOf: (id: string) => progress?.accounts.get(id), accountItems: progress.accountItems }
            : {}),
          client,
          out,
          rootUrl: shownUrl(options.target.rootUrl), // stored in envelope.json / account.json
          now,
          usageOf,
          journal: journal ?? noJournal,
          ...(ledger ? { ledger, account } : {}),
          ...(options.distributor ? { distributor: options.distributor } : {}),
          ...(options.integratorKey ? { integratorKey: options.integratorKey } : {}),
          ...(organizationRun ? { organizations: organizationRun } : {}),
        });
        noteOutput(result.error);
        collector.accountDone(item.index, result);
        emit({ type: 'account:done', result });
      };
      // Envelopes naming a brand that an entry for this very account keeps (`brand:`) but the account lacks:
      // that entry converges first (it creates the brand), then the names are looked up again, before any
      // envelope is sent. A brand still missing fails the envelopes that name it (SR_BRAND_NOT_IN_ACCOUNT), unsent.
      const awaitingBrand = plan.items.filter(
        (i): i is EnvelopePlan & { envelope: ResolvedEnvelope } =>
          i.kind === 'envelope' && i.envelope !== undefined && lacksBrand(i.envelope),
      );
      const ranFirst = new Set<string>();
      if (awaitingBrand.length > 0 && !interrupted()) {
        for (const item of workItems(plan))
          if (item.kind === 'account' && describesSendingAccount(item.plan.account, account)) {
            ranFirst.add(item.plan.identity);
            await runAccountItem(item);
          }
        await resolveBrandNames(
          awaitingBrand.map((i) => i.envelope),
          account,
        );
      }
      if (bulkLedger && bulkInPlay && !interrupted()) {
        await runBulkSendPhase(plan, {
          all: options.bulkSend === true,
          account,
          ledger: bulkLedger,
          journal: journal ?? noJournal,
          ...(progress ? { progress } : {}),
          sources: {
            arbitrate,
            documents: plan.documents,
            now: now(),
            ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
            ...(progress ? { journal: progress } : {}),
            ledger: bulkLedger,
          },
          emit,
          sendable: (envelope) => !lacksTemplate(envelope) && !lacksBrand(envelope),
          delay: options.timing?.delay ?? realTiming.delay,
          ...(options.signal ? { signal: options.signal } : {}),
          runId,
          listSize: Math.max(1, Math.min(options.bulkListSize ?? maxCopiesPerList, maxCopiesPerList)),
        });
      }
      // After the bulk phase (it decides again for the envelopes it sent); the accounts run first are done.
      const items: Array<WorkItem | undefined> = workItems(plan).map((item) =>
        item.kind === 'account' && ranFirst.has(item.plan.identity) ? undefined : item,
      );

      // Calls the items in flight may still make, so the budget keeps room for them to finish.
      let reserved = 0;
      // A draft's confirmation shares a listing with others; the budget keeps room for one of its own.
      const callsOf = (item: WorkItem) =>
        item.plan.apiCalls + (item.kind === 'envelope' && item.plan.steps.includes('confirm') ? 1 : 0);
      const outputFailed = () => outputFailure ?? spool.failure;
      const stopped = () => interrupted() || callBudget.exhausted || outputFailed() !== undefined;
      /** `done` records being written to the journal. */
      const recording = new Set<Promise<void>>();
      // --concurrency bounds the requests in flight (the connection pool).
      // When drafts are confirmed, an envelope spends a while waiting for its
      // batch's listing without holding a connection: four times as many
      // envelopes in progress keep the connections busy meanwhile.
      const inProgress = arbitrate ? concurrency * 4 : concurrency;
      const runItem = async (item: WorkItem): Promise<void> => {
        if (release) items[item.index + (item.kind === 'envelope' ? accountCount : 0)] = undefined;
        if (item.kind === 'envelope') {
          const { envelope } = item.plan;
          emit({ type: 'envelope:start', job: envelope.job, key: envelope.key });
          const result = lacksTemplate(envelope)
            ? withoutTemplate(envelope)
            : lacksBrand(envelope)
              ? withoutBrand(envelope, account)
              : await runEnvelope(item.plan, {
                  account,
                  out,
                  rootUrl: shownUrl(options.target.rootUrl), // stored in envelope.json
                  ...(options.target.sandbox ? { inProcessSandbox: true } : {}),
                  emit,
                  now,
                  viewTtlSeconds: options.viewTtlSeconds ?? 300,
                  ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
                  usageOf,
                  journal: journal ?? noJournal,
                  documents: plan.documents,
                  lastStretch: item.index >= envelopeCount - inProgress,
                  ...(ledger ? { ledger } : {}),
                  ...(progress ? { progressOf: (id: string) => progress?.envelopes.get(id) } : {}),
                });
          if (journal && result.outcome === 'succeeded' && item.plan.steps.length > 0) {
            // Recorded behind: the slot goes to the next envelope while the
            // fsync runs. A `done` lost to a crash costs nothing: the plan
            // decides from the steps' own records.
            const done = journal.append({ kind: 'envelope', id: item.plan.identity, step: 'done' });
            recording.add(done);
            done.then(
              () => recording.delete(done),
              (error: unknown) => noteOutput(error as SignrunError), // a journal that cannot be written stops the run
            );
          }
          noteOutput(result.error);
          collector.envelopeDone(item.index, result);
          emit({ type: 'envelope:done', result });
        } else await runAccountItem(item);
      };
      // Calls of the items not started yet, for saying how long a spread run still needs.
      let callsLeft = 0;
      for (const item of present(items)) callsLeft += callsOf(item);
      const waitForNextWindow = async (): Promise<boolean> => {
        const resumeAt = callBudget.nextWindowAt(now());
        const perWindow = callBudget.windowCalls();
        emit({
          type: 'budget:wait',
          resumeAt: resumeAt.toISOString(),
          callsLeft,
          ...(perWindow !== undefined ? { windowsLeft: Math.ceil(callsLeft / perWindow) } : {}),
        });
        await delayUntil(resumeAt, now, options.signal);
        if (interrupted()) return false;
        callBudget.openWindow(now());
        return true;
      };
      await scheduleLazily(
        withinBudget(present(items), async (item) => {
          // Reserved when the item is taken, not when its task starts: the next item is taken before that.
          let allowed = callBudget.canStart(callsOf(item), reserved);
          if (!allowed && callBudget.spreads && (await waitForNextWindow())) {
            allowed = callBudget.canStart(callsOf(item), reserved);
            // A fresh window that cannot hold the item: no later one will.
            if (!allowed) callBudget.giveUp();
          }
          if (allowed) {
            reserved += callsOf(item);
            callsLeft -= callsOf(item);
          }
          return allowed;
        }),
        inProgress,
        async (item) => {
          try {
            await runItem(item);
          } finally {
            reserved -= callsOf(item);
          }
        },
        stopped,
      );
      await Promise.allSettled(recording);

      if (stopped()) {
        if (interrupted()) emit({ type: 'interrupt' });
        else if (callBudget.exhausted) emit({ type: 'budget', callBudget: callBudget.report() });
        reportNotStarted(present(items), collector, emit);
      }
      if (!callBudget.exhausted && (options.maxCallsPerHour !== undefined || options.spreadOverHours === true))
        emit({ type: 'budget', callBudget: callBudget.report() });
      const summary = await finish();
      const failure = outputFailed();
      if (failure) summary.outputFailure = failure;
      return summary;
    },
  );
}

/** What converging the templates kept as code needs: a template's context, and the run's bookkeeping. */
interface TemplatesPhaseContext extends TemplateContext {
  collector: SummaryCollector;
  emit: (event: RunEvent) => void;
  interrupted: () => boolean;
}

/**
 * Converges the templates kept as code, one after the other, before any
 * envelope (envelopes may use them). Returns each converged template's id in
 * this account by its `<job>/<key>`.
 */
async function convergeTemplatesAsCode(plan: Plan, ctx: TemplatesPhaseContext): Promise<Map<string, string>> {
  const { collector, emit, interrupted, ...context } = ctx;
  const templateIds = new Map<string, string>();
  for (const templatePlan of plan.templates) {
    if (!templatePlan.template || interrupted()) continue;
    const result = await runTemplate({ ...templatePlan, template: templatePlan.template }, context);
    collector.templateDone(result);
    emit({ type: 'template:done', result });
    if (result.templateId && result.outcome !== 'deleted' && result.outcome !== 'failed')
      templateIds.set(templatePlan.identity, result.templateId);
  }
  return templateIds;
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

/** A run that stopped (interrupted, budget spent, a write refused): every item it did not start is reported not started. */
function reportNotStarted(
  items: Iterable<WorkItem>,
  collector: SummaryCollector,
  emit: (event: RunEvent) => void,
): void {
  for (const item of items) {
    if (item.kind === 'account' && !collector.hasAccount(item.index)) {
      const result = notStartedAccount(item.plan.account);
      collector.accountDone(item.index, result);
      emit({ type: 'account:done', result });
    } else if (item.kind === 'envelope' && !collector.hasEnvelope(item.index)) {
      const result = notStartedEnvelope(item.plan.envelope);
      collector.envelopeDone(item.index, result);
      emit({ type: 'envelope:done', result });
    }
  }
}

/** The items, until `allowed` says no for one: that one and the rest are never started. */
async function* withinBudget<T>(items: Iterable<T>, allowed: (item: T) => Promise<boolean>): AsyncGenerator<T> {
  for (const item of items) {
    if (!(await allowed(item))) return;
    yield item;
  }
}

/**
 * Waits until `at` by the run's clock, in steps of at most a minute (a
 * suspended laptop or a moved clock is noticed), or until the signal aborts.
 */
async function delayUntil(at: Date, now: () => Date, signal: AbortSignal | undefined): Promise<void> {
  while (!signal?.aborted) {
    const left = at.getTime() - now().getTime();
    if (left <= 0) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, Math.min(left, 60_000));
      function done() {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        resolve();
      }
      signal?.addEventListener('abort', done, { once: true });
    });
  }
}

function* present<T>(items: Iterable<T | undefined>): Generator<T> {
  for (const item of items) if (item !== undefined) yield item;
}

/**
 * Accounts first (envelopes never depend on them, but a CI provisioning run
 * reads best that way), then envelopes, in file order, each numbered in its
 * kind: the summary keeps results in that order.
 */
/** Whether a job keeps an organisation's accounts or users (DocuSign's Admin API). */
function keepsOrganizations(jobs: RunOptions['jobs']): boolean {
  return jobs.some((j) => j.organization !== undefined || j.accounts.some((a) => a.organization !== undefined));
}

function workItems(plan: Plan): WorkItem[] {
  const accounts: WorkItem[] = [];
  const envelopes: WorkItem[] = [];
  for (const item of plan.items) {
    if (item.kind === 'account' && item.account)
      accounts.push({ kind: 'account', plan: { ...item, account: item.account }, index: accounts.length });
    else if (item.kind === 'envelope' && item.envelope)
      envelopes.push({ kind: 'envelope', plan: { ...item, envelope: item.envelope }, index: envelopes.length });
  }
  return [...accounts, ...envelopes];
}

function notStartedEnvelope(e: ResolvedEnvelope): EnvelopeResult {
  const result: EnvelopeResult = {
    job: e.job,
    key: e.key,
    source: e.source,
    outcome: 'not-started',
    recipients: [],
    files: [],
    apiCalls: 0,
    retries: 0,
  };
  if (e.row !== undefined) result.row = e.row;
  if (e.rowSource !== undefined) result.rowSource = e.rowSource;
  return result;
}

/** A template of the job file that the envelope uses is not in the account (its creation or update failed). */
function lacksTemplate(envelope: ResolvedEnvelope): boolean {
  if (envelope.templateKey !== undefined && envelope.templateId === undefined) return true;
  return (envelope.templateRefs ?? []).some((ref) => ref.templateId === undefined);
}

/** An envelope whose template (`template: <key>`) this run could not create or update: not sent. */
function withoutTemplate(e: ResolvedEnvelope): EnvelopeResult {
  return {
    ...notStartedEnvelope(e),
    outcome: 'failed',
    error: {
      code: 'SR_TEMPLATE_FAILED',
      message: `template ${e.templateKey ?? (e.templateRefs ?? []).find((r) => r.templateId === undefined)?.key ?? ''} of job ${e.job} is not in the account (its creation or update failed, see the templates of the report): the envelope was not sent`,
      step: 'create',
    },
  };
}

/** An envelope whose brand (`brand: <brandName>`) the sending account does not have, even after its entry converged: not sent. */
function withoutBrand(e: ResolvedEnvelope, account: AccountClient): EnvelopeResult {
  return {
    ...notStartedEnvelope(e),
    outcome: 'failed',
    error: {
      code: 'SR_BRAND_NOT_IN_ACCOUNT',
      message: `${brandMissingMessage(e, account)} (its account entry did not create it, see the accounts of the report): the envelope was not sent`,
      step: 'create',
    },
  };
}

function notStartedAccount(a: ResolvedAccount): AccountResult {
  return {
    job: a.job,
    key: a.key,
    source: a.source,
    state: a.state,
    outcome: 'not-started',
    files: [],
    apiCalls: 0,
    retries: 0,
  };
}

/** The same function under its earlier name, for library users of 0.1. */
export const run = runJobs;
