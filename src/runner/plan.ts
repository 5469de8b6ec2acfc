import { withBulkSend } from './bulk-send/bulk-send-estimate.js';
import type { ResolvedJob } from '../jobs/model.js';
import { EsignatureClient, type AccountClient } from '../client/esignature-client.js';
import type { Auth } from '../client/auth.js';
import { readJournal } from '../state/journal.js';
import { checkStateTarget } from '../state/state-target.js';
import { journalProgress, type JournalProgress } from '../state/journal-progress.js';
import { decideEnvelope, type DecisionSources } from './decide.js';
import { organizationResourceKinds } from './resources/organization-resource-kinds.js';
import type { AccountsPlanContext } from './resources/organization-resource-kind.js';
import type { AccountPlan, DocumentsWhen, EnvelopePlan, EnvelopeStep, Plan, PlanItem } from './plan-types.js';
import { ServiceLedger } from './envelopes/service-ledger.js';
import { checkTemplates, definedRoles, PreflightError } from './templates/template-check.js';
import type { JobKindField, JobPlanContext } from './resources/job-resource-kind.js';
import { jobResourceKinds } from './resources/job-resource-kinds.js';
import { templateHomeProblems, withTemplateHomes } from './templates/template-homes.js';
import { brandsKeptFor, resolveBrandNames } from './resources/account/account-brand-names.js';
import type { RunTarget } from './run-summary.js';

export { accountExists } from './resources/kinds/accounts.js';
import type { SigningUrls } from '../config/types.js';
import type { OrganizationAccess } from './organization/admin-access.js';
import { OrganizationRecords } from './organization/organization-record.js';
import { organizationAccess } from './organization/admin-access.js';
import { adminBaseOf } from '../client/admin/admin-base.js';

/** What {@link makePlan} reads. */
export interface PlanInputs {
  jobs: ResolvedJob[];
  /** The journal of earlier runs (absent: no state folder). */
  journal?: JournalProgress;
  /** Logged in to the service (absent: offline; nothing is asked). */
  account?: AccountClient;
  /** The service's listing, kept by the run to confirm drafts. Made from `account` when absent. */
  ledger?: ServiceLedger;
  /** Another runner may race this one: any service but the run's own in-process sandbox. */
  arbitrate: boolean;
  documents: DocumentsWhen;
  now?: Date;
  /** `run --replace-drifted` (issue 12): a drifted envelope is decided `replace`. */
  replaceDrifted?: boolean;
  /** Keep the resolved envelope and account on each item (the run does; `signrun plan` need not). */
  keepItems?: boolean;
  /** `run --signing-urls on-demand`: no signing address is made at send. */
  signingUrls?: SigningUrls;
  /** The main account's integrator key: a subsidiary's user logs in with it to read the account's people. */
  integratorKey?: string;
  /** The organisations' Admin API (absent: offline; an entry with organizationId is decided from the journal). */
  organizations?: OrganizationAccess;
  /** What the organisations list, read once per command (the run keeps it to provision from). */
  organizationRecords?: OrganizationRecords;
}

/**
 * The plan: one decision per envelope and account, from the job files, the
 * journal and — logged in — the service, asked in batches: one paged
 * status-changes listing per job (by the job custom field) instead of one
 * look-up per envelope, and one read per account whose id is known. The
 * only place that decides: `runJobs` executes what it returns, `signrun
 * plan` prints it. Read-only.
 */
export async function makePlan(inputs: PlanInputs): Promise<Plan> {
  // Each template where it is kept (template-homes.ts): the configured account's among the top-level
  // templates, the other accounts' among their entries' items — never both.
  const jobs = inputs.jobs.map((job) => withTemplateHomes(job, inputs.account?.accountId));
  const ledger = inputs.ledger ?? (inputs.account && inputs.arbitrate ? new ServiceLedger(inputs.account) : undefined);
  const listingsBefore = ledger?.calls ?? 0;
  if (ledger) for (const job of new Set(jobs.map((j) => j.job))) await ledger.load(job);
  const sources: DecisionSources = sourcesOf(inputs, ledger);
  const records = inputs.organizationRecords ?? new OrganizationRecords();
  // What the organisations hold (the account entries, each job's: a clone's source before its clones), with what
  // each account keeps inside: each kind of the organisation catalogue plans its own.
  const parentCtx: AccountsPlanContext = {
    records,
    sources,
    ...(inputs.account ? { main: inputs.account } : {}),
    ...(inputs.journal ? { journal: inputs.journal } : {}),
    ...(inputs.integratorKey ? { integratorKey: inputs.integratorKey } : {}),
    ...(inputs.organizations ? { organizations: inputs.organizations } : {}),
    ...(inputs.keepItems ? { keepItems: true } : {}),
  };
  const parents: Array<{ plans: AccountPlan[][]; reads: number }> = [];
  for (const kind of organizationResourceKinds) parents.push(await kind.plan(jobs, parentCtx));
  const items: PlanItem[] = [];
  const repeats: Repeats = { steps: new Map() };
  const templates = new Set<string>();
  let drafts = 0;
  for (const [j, job] of jobs.entries()) {
    for (const parent of parents) items.push(...(parent.plans[j] ?? []));
    for (const envelope of job.envelopes) {
      if (envelope.kind === 'template' && envelope.templateId && envelope.templateKey === undefined)
        templates.add(envelope.templateId);
      for (const ref of envelope.templateRefs ?? [])
        if (ref.key === undefined && ref.templateId) templates.add(ref.templateId);
      const item = shareRepeats(decideEnvelope(envelope, sources, inputs.keepItems === true), repeats);
      if (item.steps.includes('draft') && inputs.arbitrate) drafts += 1;
      items.push(item);
    }
  }
  const listingsMade = (ledger?.calls ?? 0) - listingsBefore;
  // Drafts are confirmed in batches: about one listing per batch of drafts in flight at once (estimate: 8).
  const listingCalls = Math.ceil(drafts / 8);
  // What the job files keep in this account (templates kept as code): each kind of the job catalogue plans its own.
  const jobKinds = await planJobResources(jobs, {
    arbitrate: inputs.arbitrate,
    ...(inputs.account ? { account: inputs.account } : {}),
    ...(inputs.journal ? { journal: inputs.journal } : {}),
    ...(inputs.keepItems ? { keepItems: true } : {}),
  });
  // `brand: <brandName>`: one listing of the sending account's brands, before anything is sent.
  const brandListing = jobs.some((j) => j.envelopes.some((e) => e.brandName !== undefined)) ? 1 : 0;
  const runCalls =
    1 +
    templates.size +
    brandListing +
    listingsMade +
    parents.reduce((n, p) => n + p.reads, 0) +
    records.reads +
    (inputs.organizations?.loginCalls ?? 0) +
    jobKinds.reads;
  return {
    items,
    ...jobKinds.fields,
    documents: inputs.documents,
    arbitrate: inputs.arbitrate,
    runCalls,
    listingCalls,
    totalApiCalls: runCalls + listingCalls + items.reduce((n, i) => n + i.apiCalls, 0) + jobKinds.calls,
  };
}

/** The decisions and step lists that a campaign's envelopes repeat, one object each. */
interface Repeats {
  create?: EnvelopePlan['decision'];
  steps: Map<string, EnvelopeStep[]>;
}

/**
 * The item with its `create` decision and its list of steps the ones of
 * every other envelope that has them: the plan holds an item per envelope
 * until its work item starts (issue 37: at 100,000 rows, an object and a
 * list per envelope). Nothing changes them in place (bulk-send-phase.ts
 * replaces both, and marks only an adoption bulk-sent).
 */
function shareRepeats(item: EnvelopePlan, repeats: Repeats): EnvelopePlan {
  if (item.decision.action === 'create' && Object.keys(item.decision).length === 1)
    item.decision = repeats.create ??= item.decision;
  const key = item.steps.join(',');
  const steps = repeats.steps.get(key);
  if (steps) item.steps = steps;
  else repeats.steps.set(key, item.steps);
  return item;
}

/**
 * Each kind of the job catalogue (job-resource-kinds.ts) decided: its plans
 * in its own field of the plan, the reads its planning made and the calls
 * its plans cost.
 */
async function planJobResources(
  jobs: readonly ResolvedJob[],
  ctx: JobPlanContext,
): Promise<{ fields: Pick<Plan, JobKindField>; reads: number; calls: number }> {
  const fields: Partial<Pick<Plan, JobKindField>> = {};
  let reads = 0;
  let calls = 0;
  for (const kind of jobResourceKinds) {
    const planned = await kind.plan(jobs, ctx);
    fields[kind.field] = planned.plans;
    reads += planned.reads;
    calls += planned.plans.reduce((n, p) => n + p.apiCalls, 0);
  }
  return { fields: fields as Pick<Plan, JobKindField>, reads, calls };
}

function sourcesOf(inputs: PlanInputs, ledger: ServiceLedger | undefined): DecisionSources {
  return {
    arbitrate: inputs.arbitrate,
    documents: inputs.documents,
    now: inputs.now ?? new Date(),
    ...(inputs.replaceDrifted ? { replaceDrifted: true } : {}),
    ...(inputs.signingUrls ? { signingUrls: inputs.signingUrls } : {}),
    ...(inputs.journal ? { journal: inputs.journal } : {}),
    ...(ledger ? { ledger } : {}),
  };
}

/** Options of {@link planJobs}. */
export interface PlanJobsOptions {
  jobs: ResolvedJob[];
  /**
   * The service and how to log in; absent: the run would start its own
   * empty in-process sandbox, so nothing is asked and everything is `create`.
   */
  target?: RunTarget & { auth: Auth };
  /** The state folder whose journal a run would read (read here, never locked or repaired). */
  stateDir?: string;
  /** Default: `at-send` for an in-process sandbox, `on-completion` otherwise (as `runJobs`). */
  documents?: DocumentsWhen;
  /** As `run --replace-drifted`: drifted envelopes are shown as `replace` (issue 12). */
  replaceDrifted?: boolean;
  /** As `run --signing-urls`. */
  signingUrls?: SigningUrls;
  /** As `run --bulk-send`: every forEach envelope goes through Bulk Send (those with `bulkSend: true` always do). */
  bulkSend?: boolean;
  /** DocuSign's Admin API base, for organisations (as `run`'s). */
  adminBase?: string;
  /** The integrator key (a sandbox's Admin API is reached through it with the legacy header). */
  integratorKey?: string;
}

/**
 * The library's plan entry, as `signrun plan` calls it: what `runJobs` would
 * do with these jobs — the same decisions from the same code (`makePlan`).
 */
export async function planJobs(options: PlanJobsOptions): Promise<Plan> {
  const privateSandbox = !options.target || options.target.sandbox;
  const documents = options.documents ?? (privateSandbox ? 'at-send' : 'on-completion');
  let journal: JournalProgress | undefined;
  if (options.stateDir && options.target && !options.target.sandbox) {
    // A journal of another service's runs would list envelopes this one never had.
    await checkStateTarget(options.stateDir, options.target.rootUrl);
    journal = journalProgress((await readJournal(options.stateDir)).records);
  }
  const envelopes = options.jobs.flatMap((j) => j.envelopes);
  const bulk = (plan: Plan) => withBulkSend(plan, envelopes, options.bulkSend === true);
  if (!options.target || options.target.sandbox)
    return makePlan({
      jobs: options.jobs,
      arbitrate: false,
      documents,
      ...(journal ? { journal } : {}),
      ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
    }).then(bulk);
  const client = EsignatureClient.create({ rootUrl: options.target.rootUrl, auth: options.target.auth });
  try {
    const account = await client.login({ tag: 'login' });
    // What run would refuse before sending (a role or a tab label the template lacks), plan says too.
    const { problems } = await checkTemplates(
      options.jobs.flatMap((j) => j.envelopes),
      account,
      definedRoles(options.jobs),
    );
    // A brand named by `brand:` that the account lacks stops `run` before sending: `plan` says so too.
    // (One that an entry for this very account keeps is created by the run first: not a problem.)
    const pending = brandsKeptFor(
      options.jobs.flatMap((j) => j.accounts),
      account,
    );
    problems.push(...(await resolveBrandNames(envelopes, account, pending)).problems);
    // A template of the file the configured account will not have (only other accounts' entries list it): run refuses it.
    problems.push(...templateHomeProblems(envelopes, options.jobs, account.accountId));
    if (problems.length > 0) throw new PreflightError(problems);
    const keepsOrganization = options.jobs.some(
      (j) => j.organization !== undefined || j.accounts.some((a) => a.organization !== undefined),
    );
    const organizations = keepsOrganization
      ? organizationAccess({
          client,
          auth: options.target.auth,
          base: options.adminBase ?? adminBaseOf({ rootUrl: options.target.rootUrl }),
          userId: account.userId,
          integratorKey:
            options.integratorKey ??
            (options.target.auth.kind === 'legacy' ? options.target.auth.integratorKey : undefined),
        })
      : undefined;
    const plan = await makePlan({
      ...(organizations ? { organizations } : {}),
      jobs: options.jobs,
      account,
      arbitrate: true,
      documents,
      ...(journal ? { journal } : {}),
      ...(options.replaceDrifted ? { replaceDrifted: true } : {}),
      ...(options.signingUrls ? { signingUrls: options.signingUrls } : {}),
    });
    // The account's hourly limit as its last answer said it: how long the run's calls take.
    const rateLimit = client.rateLimit;
    return bulk(rateLimit ? { ...plan, rateLimit } : plan);
  } finally {
    client.close();
  }
}

/** `<job>/<key>` of a plan item. */
export function planItemName(item: PlanItem): string {
  return item.identity;
}
