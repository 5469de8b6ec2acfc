import type { ResolvedAccount, ResolvedEnvelope, Secret } from '../jobs/model.js';
import type { SigningUrls } from '../config/types.js';
import { SignrunError } from '../errors/signrun-error.js';
import type { AccountClient, EsignatureClient } from '../client/esignature-client.js';
import type { Timing } from '../client/timing.js';
import type { Journal } from '../state/journal.js';
import type { JournalProgress } from '../state/journal-progress.js';
import type { OutputFolder } from '../output/output-folder.js';
import type { ResultSpool } from '../output/result-spool.js';
import { organizationKindOf } from './resources/organization-resource-kinds.js';
import { noJournal, runEnvelope, type EnvelopeContext } from './envelopes/envelope-pipeline.js';
import type { ServiceLedger } from './envelopes/service-ledger.js';
import { expandedEnvelope } from '../jobs/row-envelope.js';
import { ValidatedDocuments } from './envelopes/validated-documents.js';
import type { AccountPlan, EnvelopePlan, Plan } from './plan-types.js';
import type { AccountResult, EnvelopeResult, SummaryCollector } from './run-summary.js';
import type { RunEvent } from './run-events.js';
import { scheduleLazily } from './schedule.js';
import type { CallBudget } from './call-budget.js';
import { brandMissingMessage, lacksBrand } from './resources/account/account-brand-names.js';
import type { OrganizationRun } from './organization/organization-run.js';
import type { RequestOrder } from './request-priority.js';

/** An item of the plan to execute, with its place in the job files (among envelopes, or among accounts). */
export type WorkItem =
  | { kind: 'envelope'; plan: EnvelopePlan & { envelope: ResolvedEnvelope }; index: number }
  | { kind: 'account'; plan: AccountPlan & { account: ResolvedAccount }; index: number };

/** What executing the plan's accounts and envelopes needs from the run. */
export interface WorkContext {
  plan: Plan;
  client: EsignatureClient;
  account: AccountClient;
  /** The service's root URL as envelope.json and account.json store it (shownUrl). */
  out: OutputFolder;
  rootUrl: string;
  inProcessSandbox: boolean;
  collector: SummaryCollector;
  spool: ResultSpool<EnvelopeResult>;
  journal?: Journal;
  progress?: JournalProgress;
  ledger?: ServiceLedger;
  emit: (event: RunEvent) => void;
  now: () => Date;
  /** Waits by the run's clock (its `timing`): the wait for the next hourly window. */
  delay: Timing['delay'];
  interrupted: () => boolean;
  /**
   * Envelopes in progress at once. --concurrency bounds the requests in
   * flight (the connection pool). When drafts are confirmed, an envelope
   * spends a while waiting for its batch's listing without holding a
   * connection: more envelopes in progress keep the connections busy
   * meanwhile (run.ts, envelopesInProgress).
   */
  inProgress: number;
  callBudget: CallBudget;
  /** Each item is let go from the list once started (`releaseEnvelopes`). */
  release: boolean;
  envelopeCount: number;
  viewTtlSeconds: number;
  signingUrls?: SigningUrls;
  distributor?: { code: string; password: Secret };
  integratorKey?: string;
  organizations?: OrganizationRun;
  signal?: AbortSignal;
  /** The order of the run's requests for a free connection, switched to the last stretch's here. */
  order?: RequestOrder;
}

/**
 * Runs the plan's accounts and envelopes: lazily, `inProgress` at a time,
 * within the hourly call budget (waiting for the next window when the run
 * spreads over hours), each result given to the collector as it ends. What
 * a stopped run did not start is reported not started. Returns the write
 * failure that stopped the run, if one did.
 */
export class WorkItems {
  readonly #ctx: WorkContext;
  /** The output folder or the state folder refused a write: nothing new is started. */
  #outputFailure: SignrunError | undefined;
  /** `done` records being written to the journal. */
  readonly #recording = new Set<Promise<void>>();
  readonly #usageOf: (tag: string) => { calls: number; retries: number };
  /** What every envelope's pipeline shares. */
  readonly #envelopeContext: EnvelopeContext;

  constructor(ctx: WorkContext) {
    this.#ctx = ctx;
    this.#usageOf = (tag) => ctx.collector.usageOf(tag);
    this.#envelopeContext = {
      account: ctx.account,
      out: ctx.out,
      rootUrl: ctx.rootUrl, // stored in envelope.json
      ...(ctx.inProcessSandbox ? { inProcessSandbox: true } : {}),
      emit: ctx.emit,
      now: ctx.now,
      viewTtlSeconds: ctx.viewTtlSeconds,
      ...(ctx.signingUrls ? { signingUrls: ctx.signingUrls } : {}),
      usageOf: this.#usageOf,
      journal: ctx.journal ?? noJournal,
      documents: ctx.plan.documents,
      validatedDocuments: new ValidatedDocuments(),
      ...(ctx.ledger ? { ledger: ctx.ledger } : {}),
      ...(ctx.progress ? { progressOf: (id: string) => ctx.progress?.envelopes.get(id) } : {}),
      ...(ctx.order ? { order: ctx.order } : {}),
    };
  }

  /** The failure that stops new work: a write refused by the output or state folder. */
  get outputFailure(): SignrunError | undefined {
    return this.#outputFailure ?? this.#ctx.spool.failure;
  }

  #noteOutput(error: { code: string; message: string } | undefined): void {
    if (error?.code === 'SR_OUTPUT_WRITE') this.#outputFailure ??= new SignrunError('SR_OUTPUT_WRITE', error.message);
  }

  /** One account's entry, converged. */
  async runAccount(item: Extract<WorkItem, { kind: 'account' }>): Promise<void> {
    const ctx = this.#ctx;
    const { account: resolved } = item.plan;
    ctx.emit({ type: 'account:start', job: resolved.job, key: resolved.key });
    const result = await organizationKindOf(item.plan.kind)!.converge(item.plan, {
      ...(ctx.progress
        ? { progressOf: (id: string) => ctx.progress?.accounts.get(id), accountItems: ctx.progress.accountItems }
        : {}),
      client: ctx.client,
      out: ctx.out,
      rootUrl: ctx.rootUrl, // stored in account.json
      now: ctx.now,
      usageOf: this.#usageOf,
      journal: ctx.journal ?? noJournal,
      ...(ctx.ledger ? { ledger: ctx.ledger, account: ctx.account } : {}),
      ...(ctx.distributor ? { distributor: ctx.distributor } : {}),
      ...(ctx.integratorKey ? { integratorKey: ctx.integratorKey } : {}),
      ...(ctx.organizations ? { organizations: ctx.organizations } : {}),
    });
    this.#noteOutput(result.error);
    ctx.collector.accountDone(item.index, result);
    ctx.emit({ type: 'account:done', result });
  }

  /** One envelope's plan, executed (or failed unsent for a template or brand the account lacks), its `done` journalled behind. */
  async #runEnvelope(item: Extract<WorkItem, { kind: 'envelope' }>): Promise<void> {
    const ctx = this.#ctx;
    // A row kept as its row (a streamed `run`) is expanded now, and let go with its item.
    const envelope = expandedEnvelope(item.plan.envelope);
    item.plan.envelope = envelope;
    ctx.emit({ type: 'envelope:start', job: envelope.job, key: envelope.key });
    const result = lacksTemplate(envelope)
      ? withoutTemplate(envelope)
      : lacksBrand(envelope)
        ? withoutBrand(envelope, ctx.account)
        : await runEnvelope(item.plan, this.#envelopeContext);
    if (ctx.journal && result.outcome === 'succeeded' && item.plan.steps.length > 0) {
      // Recorded behind: the slot goes to the next envelope while the
      // fsync runs. A `done` lost to a crash costs nothing: the plan
      // decides from the steps' own records.
      const done = ctx.journal.append({ kind: 'envelope', id: item.plan.identity, step: 'done' });
      this.#recording.add(done);
      done.then(
        () => this.#recording.delete(done),
        (error: unknown) => this.#noteOutput(error as SignrunError), // a journal that cannot be written stops the run
      );
    }
    // This run decides nothing more of the envelope: the ledger lets its entries go.
    ctx.ledger?.settle(item.plan.identity);
    this.#noteOutput(result.error);
    ctx.collector.envelopeDone(item.index, result);
    ctx.emit({ type: 'envelope:done', result });
  }

  /**
   * One of the run's last `inProgress` envelopes: once the first starts,
   * nothing new comes after them, so they all start at once (twice
   * `inProgress` in progress for that stretch) and every request of the run
   * goes longest chain first (request-priority.ts). Started one as another
   * ended, the last few began only when older envelopes' views were done,
   * and ran their chains (draft, listing, send, views) alone on idle
   * connections.
   */
  #inLastStretch(item: WorkItem): boolean {
    return item.kind === 'envelope' && item.index >= this.#ctx.envelopeCount - this.#ctx.inProgress;
  }

  /**
   * Runs `items` (a slot is emptied once its item started, when the run
   * releases them), then reports what a stopped run did not start.
   */
  async run(items: WorkList): Promise<void> {
    const ctx = this.#ctx;
    const { callBudget } = ctx;
    // Calls the items in flight may still make, so the budget keeps room for them to finish.
    let reserved = 0;
    // Resolved when an item in flight ends (its reservation given back); a new one for the next.
    let ended = () => {};
    let itemEnded = new Promise<void>((resolve) => (ended = resolve));
    // A draft's confirmation shares a listing with others; the budget keeps room for one of its own.
    const callsOf = (item: WorkItem) =>
      item.plan.apiCalls + (item.kind === 'envelope' && item.plan.steps.includes('confirm') ? 1 : 0);
    const stopped = () => ctx.interrupted() || callBudget.exhausted || this.outputFailure !== undefined;
    // Calls of the items not started yet, for saying how long a spread run still needs.
    let callsLeft = 0;
    for (const item of items) callsLeft += callsOf(item);
    const waitForNextWindow = async (): Promise<boolean> => {
      // The items in flight end first: their answers' headers say when the service's window resets, and
      // none is left answering from the old window once the new one is open (nor holding calls of it).
      while (reserved > 0) await itemEnded;
      const resumeAt = callBudget.nextWindowAt(ctx.now());
      const perWindow = callBudget.windowCalls();
      ctx.emit({
        type: 'budget:wait',
        resumeAt: resumeAt.toISOString(),
        callsLeft,
        ...(perWindow !== undefined ? { windowsLeft: Math.ceil(callsLeft / perWindow) } : {}),
      });
      await delayUntil(resumeAt, ctx, ctx.signal);
      if (ctx.interrupted()) return false;
      callBudget.openWindow(ctx.now());
      return true;
    };
    await scheduleLazily(
      withinBudget(items, async (item) => {
        // Reserved when the item is taken, not when its task starts: the next item is taken before that.
        let allowed = callBudget.canStart(callsOf(item), reserved);
        if (!allowed && callBudget.spreads && (await waitForNextWindow())) {
          allowed = callBudget.canStart(callsOf(item), reserved);
          // A fresh window that cannot hold the item, with nothing in flight: no later one will.
          if (!allowed) callBudget.giveUp();
        }
        if (allowed) {
          reserved += callsOf(item);
          callsLeft -= callsOf(item);
        }
        return allowed;
      }),
      ctx.inProgress,
      async (item) => {
        try {
          if (this.#inLastStretch(item)) ctx.order?.enterLastStretch();
          if (ctx.release) items.release(item);
          if (item.kind === 'envelope') await this.#runEnvelope(item);
          else await this.runAccount(item);
        } finally {
          reserved -= callsOf(item);
          ended();
          itemEnded = new Promise<void>((resolve) => (ended = resolve));
        }
      },
      stopped,
      (item) => (this.#inLastStretch(item) ? 2 * ctx.inProgress : ctx.inProgress),
    );
    await Promise.allSettled(this.#recording);

    if (stopped()) {
      if (ctx.interrupted()) ctx.emit({ type: 'interrupt' });
      else if (callBudget.exhausted) ctx.emit({ type: 'budget', callBudget: callBudget.report() });
      reportNotStarted(items, ctx.collector, ctx.emit);
    }
  }
}

/**
 * Accounts first (envelopes never depend on them, but a CI provisioning run
 * reads best that way), then envelopes, in file order, each numbered in its
 * kind: the summary keeps results in that order.
 */
export function workItems(plan: Plan): WorkList {
  const accounts: Array<WorkItem | undefined> = [];
  const envelopes: Array<(EnvelopePlan & { envelope: ResolvedEnvelope }) | undefined> = [];
  for (const item of plan.items) {
    if (item.kind === 'account' && item.account)
      accounts.push({ kind: 'account', plan: { ...item, account: item.account }, index: accounts.length });
    else if (item.kind === 'envelope' && item.envelope)
      // The plan's own item, not a copy (one object less an envelope, at 100,000 rows): it has its envelope.
      envelopes.push(item as EnvelopePlan & { envelope: ResolvedEnvelope });
  }
  return new WorkList(accounts, envelopes);
}

/**
 * The work items of a run, in order: accounts, then envelopes. An
 * envelope's item is made when it is taken (issue 37: at 100,000 rows, not
 * an object each held from the plan's end to its start), and each item is
 * let go once started when the run releases its envelopes.
 */
export class WorkList implements Iterable<WorkItem> {
  readonly #accounts: Array<WorkItem | undefined>;
  readonly #envelopes: Array<(EnvelopePlan & { envelope: ResolvedEnvelope }) | undefined>;

  constructor(
    accounts: Array<WorkItem | undefined>,
    envelopes: Array<(EnvelopePlan & { envelope: ResolvedEnvelope }) | undefined>,
  ) {
    this.#accounts = accounts;
    this.#envelopes = envelopes;
  }

  /** The items not let go, accounts first; an envelope's made as it is reached. */
  *[Symbol.iterator](): Generator<WorkItem> {
    for (const item of this.#accounts) if (item) yield item;
    const envelopes = this.#envelopes;
    for (let index = 0; index < envelopes.length; index++) {
      const plan = envelopes[index];
      if (plan) yield { kind: 'envelope', plan, index };
    }
  }

  /** Lets the item go: it is no longer among the list's. */
  release(item: WorkItem): void {
    if (item.kind === 'envelope') this.#envelopes[item.index] = undefined;
    else this.#accounts[item.index] = undefined;
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
async function delayUntil(
  at: Date,
  clock: Pick<WorkContext, 'now' | 'delay'>,
  signal: AbortSignal | undefined,
): Promise<void> {
  while (!signal?.aborted) {
    const left = at.getTime() - clock.now().getTime();
    if (left <= 0) return;
    // An abort ends the wait early; the caller sees it through the signal.
    await clock.delay(Math.min(left, 60_000), signal).catch(() => undefined);
  }
}

/** The items left in a list whose slots are emptied as they start. */
export function* present<T>(items: Iterable<T | undefined>): Generator<T> {
  for (const item of items) if (item !== undefined) yield item;
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
export function lacksTemplate(envelope: ResolvedEnvelope): boolean {
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
