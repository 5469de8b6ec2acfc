import type { AccountClient } from '../../../client/esignature-client.js';
import type { ResolvedAccount, ResolvedJob } from '../../../jobs/model.js';
import { ClientHttpError } from '../../../client/client-errors.js';
import { serviceErrorMeans } from '../../../client/service-error-classes.js';
import { decideAccount, type DecisionSources } from '../../decide.js';
import { identityOf } from '../../identity.js';
import type { AccountPlan } from '../../plan-types.js';
import { cloneSourcesFirst } from '../../organization/clone-order.js';
import { organizationActionWords } from '../../organization/organization-accounts.js';
import { planOrganizationAccount } from '../../organization/organization-run.js';
import { contentsCalls, hasContents, planAccountContents } from '../account/account-contents-plan.js';
import { runAccount } from '../account/account-pipeline.js';
import type { AccountsPlanContext, OrganizationResourceKind } from '../organization-resource-kind.js';

// The account entries (`accounts:`) as a resource kind whose parent is an
// organisation (organization-resource-kind.ts): decided by decide.ts (a
// subsidiary of the configured account's distributor) or by its
// organisation's record (organization/organization-accounts.ts), then what
// it keeps inside decided kind by kind (account-contents-plan.ts); converged
// by the account's pipeline (account-pipeline.ts). Its journal records and
// plan items are the ones accounts had before they moved onto the interface.

/** Whether the service still has this account (GET …/accounts/{accountId}; 404 or a missing-account errorCode: no). */
export async function accountExists(account: AccountClient, accountId: string, tag: string): Promise<boolean> {
  try {
    await account.client.getAccount(accountId, { tag });
    return true;
  } catch (error) {
    if (error instanceof ClientHttpError && (error.status === 404 || serviceErrorMeans(error, 'account-missing')))
      return false;
    throw error;
  }
}

/**
 * Whether the service still has each account a plan would keep as it is
 * (known to the journal or the job file): one read each, before deciding.
 * An organisation's accounts are decided by its record instead.
 */
async function readPresence(
  jobs: readonly ResolvedJob[],
  main: AccountClient | undefined,
  sources: AccountsPlanContext['sources'],
): Promise<{ present: Map<string, boolean>; reads: number }> {
  const present = new Map<string, boolean>();
  let reads = 0;
  if (!main) return { present, reads };
  for (const job of jobs)
    for (const account of job.accounts) {
      if (account.organization) continue; // its organisation's record decides it (organization-accounts.ts)
      const plan = decideAccount(account, { ...sources, accountPresent: new Map() });
      if (plan.decision.action !== 'up-to-date') continue;
      reads += 1;
      present.set(plan.decision.accountId, await accountExists(main, plan.decision.accountId, identityOf(account)));
    }
  return { present, reads };
}

/** One entry's decision, then (when it keeps some) what it keeps inside the account. */
async function planAccount(
  account: ResolvedAccount,
  sources: DecisionSources,
  ctx: AccountsPlanContext,
): Promise<{ plan: AccountPlan; reads: number }> {
  let item = account.organization
    ? await planOrganizationAccount(account, ctx.organizations, ctx.records, ctx.journal)
    : decideAccount(account, sources);
  let reads = 0;
  // Its users, groups and permission profiles: read as the account's own user, decided one by one.
  if (hasContents(account)) {
    const { contents, reads: contentReads } = await planAccountContents(account, item.decision, {
      ...(ctx.main ? { main: ctx.main } : {}),
      ...(ctx.journal ? { journal: ctx.journal } : {}),
      ...(ctx.integratorKey ? { integratorKey: ctx.integratorKey } : {}),
      ...(ctx.organizations ? { organizations: ctx.organizations } : {}),
    });
    reads += contentReads;
    // What the listings found is the run's to converge from; `signrun plan` prints decisions, not the account's people.
    const { found, ...decided } = contents;
    const kept = ctx.keepItems && found ? { ...decided, found } : decided;
    item = { ...item, apiCalls: item.apiCalls + contentsCalls(contents.items, account), contents: kept };
  }
  return { plan: ctx.keepItems ? { ...item, account } : item, reads };
}

export const accounts = {
  kind: 'account' as const,
  parent: 'organization' as const,
  words: { one: 'account', summary: 'account(s)' },
  count: (job) => job.accounts.length,

  async plan(jobs, ctx) {
    const { present, reads: presenceReads } = await readPresence(jobs, ctx.main, ctx.sources);
    const sources: DecisionSources = { ...ctx.sources, accountPresent: present };
    const plans: AccountPlan[][] = [];
    let reads = presenceReads;
    for (const job of jobs) {
      const own: AccountPlan[] = [];
      for (const account of cloneSourcesFirst(job.accounts)) {
        const planned = await planAccount(account, sources, ctx);
        reads += planned.reads;
        own.push(planned.plan);
      }
      plans.push(own);
    }
    return { plans, reads };
  },

  converge: runAccount,

  planWords: (plan) => organizationActionWords(plan.account, plan.decision) ?? `${plan.decision.action} account`,
} satisfies OrganizationResourceKind;
