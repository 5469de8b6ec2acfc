import type { ResolvedAccount } from '../../../jobs/model.js';
import type { AccountPeople } from '../../../client/account-people.js';
import type { Journal } from '../../../state/journal.js';
import type { AccountItemProgress } from '../../../state/journal-progress.js';
import { SignrunError } from '../../../errors/signrun-error.js';
import type { AccountItemPlan, FoundPeople } from '../../plan-types.js';
import { itemErrorOf } from '../../envelopes/envelope-pipeline.js';
import type { AccountItemResult } from '../../run-results.js';
import type { AccountResourceKind, ConvergeContext, OrganizationContext } from '../resource-kind.js';
import { resourceKinds } from '../resource-kinds.js';

/** What converging an account's contents needs. */
export interface ContentsContext {
  /** Logged in as a user of that account who may manage it. */
  people: AccountPeople;
  journal: Journal;
  /** What this state's journal says of the items (an up-to-date item not recorded yet is recorded). */
  journalled?: ReadonlyMap<string, AccountItemProgress>;
  tag: string;
  /** The account's organisation (an entry with organizationId): what is kept through it. */
  organization?: OrganizationContext;
}

/**
 * Executes the plan of what an account entry keeps inside the account
 * (account-contents-plan.ts decided), kind by kind in the catalogue's
 * dependency order (resources/resource-kinds.ts: profiles, then the groups
 * that name them, the users who name both, brands, Connect, templates).
 * Exactly once: the account is the record — each kind confirms its
 * creations by listing again and keeps the earliest of a name. Each write is
 * journalled here, for every kind alike, with the digest of the file's
 * declaration, which tells a later plan whether a difference was made
 * outside signrun. Never throws: each item has its outcome. `kinds`: the
 * catalogue walked (resource-kinds.ts's, unless a test gives its own).
 */
export async function convergeContents(
  account: ResolvedAccount,
  plans: readonly AccountItemPlan[],
  found: FoundPeople,
  ctx: ContentsContext,
  kinds: readonly AccountResourceKind[] = resourceKinds,
): Promise<AccountItemResult[]> {
  const results = new Map<string, AccountItemResult>();
  const converge: ConvergeContext = {
    people: ctx.people,
    tag: ctx.tag,
    found,
    done: async (plan, outcome, id) => {
      results.set(plan.identity, {
        kind: plan.kind,
        name: plan.name,
        outcome,
        ...(id ? { id } : {}),
        ...(outcome === 'updated' ? { outside: plan.outside, differences: plan.differences } : {}),
      });
      if (outcome === 'deleted' && id)
        await ctx.journal.append({ kind: 'account-item', id: plan.identity, step: 'deleted', itemId: id });
      else if (id && outcome !== 'already-absent') {
        const known = ctx.journalled?.get(plan.identity);
        // An item already as the file says, and recorded so: nothing to write.
        if (outcome === 'up-to-date' && known?.present && known.digest === plan.digest && known.itemId === id) return;
        await ctx.journal.append({
          kind: 'account-item',
          id: plan.identity,
          step: 'written',
          itemId: id,
          digest: plan.digest,
          ...(plan.outside ? { outside: true } : {}),
        });
      }
    },
    failed: (plan, error) => {
      results.set(plan.identity, {
        kind: plan.kind,
        name: plan.name,
        outcome: 'failed',
        error: itemErrorOf(error, plan.action),
      });
    },
    hasOutcome: (plan) => results.has(plan.identity),
    refused: (what, message) =>
      new SignrunError('SR_ACCOUNT_FAILED', `${ctx.tag}: ${what}: ${message ?? 'refused by the service'}`),
    ...(ctx.organization ? { organization: ctx.organization } : {}),
  };
  for (const kind of kinds) {
    const own = plans.filter((p) => p.kind === kind.kind);
    if (own.length > 0) await kind.converge(account, own, converge);
  }
  // In the plan's order (the catalogue's), as the report lists them.
  return plans.map((p) => results.get(p.identity) ?? { kind: p.kind, name: p.name, outcome: 'not-started' as const });
}
