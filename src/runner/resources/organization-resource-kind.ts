import type { AccountClient } from '../../client/esignature-client.js';
import type { ResolvedAccount, ResolvedJob } from '../../jobs/model.js';
import type { JournalProgress } from '../../state/journal-progress.js';
import type { DecisionSources } from '../decide.js';
import type { AccountPlan } from '../plan-types.js';
import type { AccountResult } from '../run-results.js';
import type { OrganizationAccess } from '../organization/admin-access.js';
import type { OrganizationRecords } from '../organization/organization-record.js';
import type { AccountContext } from './account/account-pipeline.js';
import type { ResourceKindBase } from './resource-kind.js';

// A resource kind whose parent is an organisation (`parent: 'organization'`):
// the accounts themselves, which an account entry keeps — created through
// its organisation's Admin API (organizationId), or as a subsidiary of the
// configured account's distributor — and in which the account catalogue's
// kinds (resource-kinds.ts) then live. The same interface as the others
// (resource-kind.ts: identity, read, compare, converge, words), with what an
// organisation lends: the configured account, the organisations' Admin API
// and what they list. Its journal records are its own (`kind: 'account'`,
// id `<job>/<key>`: create-intent / created / deleted, written by the
// account's pipeline, account-pipeline.ts), and its items are the plan's
// `account` items, run among the envelopes by the run's work items.

/** What planning accounts reads. */
export interface AccountsPlanContext {
  /** Logged in to the configured account (absent: offline; decided from the journal). */
  main?: AccountClient;
  journal?: JournalProgress;
  /** The main account's integrator key: a subsidiary's user logs in with it to read the account's contents. */
  integratorKey?: string;
  /** The organisations' Admin API (absent: offline; an entry with organizationId is decided from the journal). */
  organizations?: OrganizationAccess;
  /** What the organisations list, read once per command. */
  records: OrganizationRecords;
  /** Keep the resolved account entry (and what its listings found) on each plan (the run does). */
  keepItems?: boolean;
  /** How the plan decides from the journal and the service's listing (decide.ts); the kind reads the accounts' presence. */
  sources: Omit<DecisionSources, 'accountPresent'>;
}

/** One kind of thing an organisation holds: an account. */
export interface OrganizationResourceKind extends ResourceKindBase {
  readonly parent: 'organization';
  /** How many a job keeps. */
  count(job: ResolvedJob): number;
  /**
   * The one decision for each entry, with what it keeps inside the account
   * (the account catalogue's kinds), job by job (`plans[j]`: the jobs[j]'s,
   * a clone's source before its clones). Returns the reads made.
   */
  plan(jobs: readonly ResolvedJob[], ctx: AccountsPlanContext): Promise<{ plans: AccountPlan[][]; reads: number }>;
  /** Executes one entry's plan, exactly once, each step journalled; then its contents. Never throws. */
  converge(plan: AccountPlan & { account: ResolvedAccount }, ctx: AccountContext): Promise<AccountResult>;
  /** `signrun plan`'s words for an entry's decision: `create account`, `clone account (of acme)` … */
  planWords(plan: AccountPlan): string;
}
