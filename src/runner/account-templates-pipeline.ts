import type { AccountClient } from '../client/esignature-client.js';
import type { ResolvedAccount } from '../jobs/model.js';
import { templateDecisionOf } from './account-templates-plan.js';
import type { AccountItemPlan } from './plan-types.js';
import type { AccountItemResult } from './run-results.js';
import { convergeTemplate, deleteDuplicates } from './template-pipeline.js';

/** What the account's pipeline (account-contents-pipeline.ts) lends this one: the account's client and its bookkeeping. */
export interface AccountTemplatesContext {
  /** The subsidiary, logged in as its user. */
  account: AccountClient;
  tag: string;
  /** Records an item's outcome (and journals it, with the file's digest). */
  done: (plan: AccountItemPlan, outcome: AccountItemResult['outcome'], id: string | undefined) => Promise<void>;
  failed: (plan: AccountItemPlan, error: unknown) => void;
}

/**
 * Executes the plan of an account entry's templates (after its Connect
 * configurations), one after the other, with the code that converges the
 * configured account's templates (template-pipeline.ts): duplicates of an
 * identity deleted, then create (confirmed by listing the account's
 * templates again: the earliest of the identity counts, this run's copy is
 * deleted if it lost), update (putting back a change made outside signrun)
 * or delete. Each write is journalled by `done` as the account's other items
 * are (the template's id, the file's digest). Never throws.
 */
export async function convergeAccountTemplates(
  account: ResolvedAccount,
  plans: readonly AccountItemPlan[],
  ctx: AccountTemplatesContext,
): Promise<void> {
  const templates = new Map((account.templates ?? []).map((t) => [t.key, t]));
  for (const plan of plans.filter((p) => p.kind === 'template')) {
    const template = templates.get(plan.name)!;
    try {
      if (plan.duplicates && plan.duplicates.length > 0) await deleteDuplicates(ctx.account, plan.duplicates, ctx.tag);
      const converged = await convergeTemplate(template, templateDecisionOf(plan), ctx.account, {
        tag: ctx.tag,
        // Always confirmed, as the account's other creations are: the account is the record.
        arbitrate: true,
      });
      await ctx.done(plan, converged.outcome, converged.templateId);
    } catch (error) {
      ctx.failed(plan, error);
    }
  }
}
