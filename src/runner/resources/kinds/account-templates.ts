import type { AccountClient } from '../../../client/esignature-client.js';
import type { ResolvedAccount, ResolvedTemplate } from '../../../jobs/model.js';
import type { AccountItemProgress } from '../../../state/journal-progress.js';
import type { AccountItemPlan, TemplateDecision, TemplatePlan } from '../../plan-types.js';
import { TemplateLedger } from '../../templates/template-ledger.js';
import { planTemplate, templateCalls } from '../../templates/template-plan.js';
import { convergeTemplate, deleteDuplicates } from '../../templates/template-pipeline.js';
import type { AccountResourceKind } from '../resource-kind.js';
import { accountTemplatesImport } from '../../import/import-account-templates.js';
import { connectConfigurations } from './connect-configurations.js';
import { organizationUsers } from './organization-users.js';

// An account entry's `templates:` (keys of the job file's templates) decided
// in that account with the very code that decides the configured account's
// templates (template-plan.ts), and turned into the account's items, which
// the account's pipeline, journal and reports already carry. Converged last,
// after Connect. A template reads itself: its own listing, then one read of
// each found.

/** The journal's id of a template in an account: `<job>/<key>#template:<template key>`. */
export function accountTemplateIdentity(account: ResolvedAccount, template: ResolvedTemplate): string {
  return `${account.job}/${account.key}#template:${template.key}`;
}

/** A template's plan as an item of its account. */
function itemOf(account: ResolvedAccount, template: ResolvedTemplate, plan: TemplatePlan): AccountItemPlan {
  const decision = plan.decision;
  return {
    kind: 'template',
    name: template.key,
    identity: accountTemplateIdentity(account, template),
    action: decision.action,
    outside: decision.action === 'update' && decision.outside,
    differences: plan.differences,
    ...('templateId' in decision ? { id: decision.templateId } : {}),
    digest: template.digest,
    ...(plan.duplicates.length > 0 ? { duplicates: plan.duplicates } : {}),
  };
}

/** The template decision an account item of kind `template` stands for (the pipeline executes it). */
export function templateDecisionOf(item: AccountItemPlan): TemplateDecision {
  switch (item.action) {
    case 'create':
      return { action: 'create' };
    case 'already-absent':
      return { action: 'already-absent' };
    case 'update':
      return { action: 'update', templateId: item.id!, outside: item.outside };
    case 'up-to-date':
    case 'delete':
      return { action: item.action, templateId: item.id! };
  }
}

/** The calls a run makes for an account's template item: as for the configured account's, always confirmed by a listing. */
export function accountTemplateCalls(item: AccountItemPlan): number {
  return templateCalls(templateDecisionOf(item), true) + (item.duplicates?.length ? 1 : 0);
}

/**
 * Decides each template an account entry installs. Logged in to the account
 * (`subsidiary`): one paged listing of its templates (by the identity each
 * carries), then one read of each found; without it (offline, or the account
 * cannot be read yet) each present template is `create` and each absent one
 * `already-absent`. Exactly once: the run confirms a creation by listing
 * again (the earliest of an identity counts), whether or not runners may
 * race, as the account's other items do.
 */
export async function planAccountTemplates(
  account: ResolvedAccount,
  subsidiary: AccountClient | undefined,
  journal: ReadonlyMap<string, AccountItemProgress> | undefined,
  tag: string,
): Promise<{ items: AccountItemPlan[]; reads: number }> {
  const templates = account.templates ?? [];
  if (templates.length === 0) return { items: [], reads: 0 };
  let reads = 0;
  let ledger: TemplateLedger | undefined;
  if (subsidiary) {
    ledger = new TemplateLedger(subsidiary);
    await ledger.load(tag);
    reads += ledger.calls;
  }
  const items: AccountItemPlan[] = [];
  for (const template of templates) {
    const journalled = journal?.get(accountTemplateIdentity(account, template));
    const planned = await planTemplate(template, {
      arbitrate: true,
      tag,
      ...(subsidiary ? { account: subsidiary } : {}),
      ...(ledger ? { ledger } : {}),
      ...(journalled?.present ? { journalledId: journalled.itemId } : {}),
    });
    reads += planned.reads;
    items.push(itemOf(account, template, planned.plan));
  }
  return { items, reads };
}

export const accountTemplates = {
  kind: 'template' as const,
  // Last: after Connect and the organisation's users, where plans, journals and imports list them.
  after: [connectConfigurations.kind, organizationUsers.kind],
  words: { one: 'template', summary: 'templates' },
  count: (account) => account.templates?.length ?? 0,

  plan: (account, ctx) => planAccountTemplates(account, ctx.subsidiary, ctx.journal, ctx.tag),

  calls: (plans) => plans.reduce((n, p) => n + accountTemplateCalls(p), 0),

  /**
   * One after the other, with the code that converges the configured
   * account's templates (template-pipeline.ts): duplicates of an identity
   * deleted, then create (confirmed by listing the account's templates
   * again: the earliest of the identity counts, this run's copy is deleted
   * if it lost), update (putting back a change made outside signrun) or
   * delete.
   */
  async converge(account, plans, ctx) {
    const templates = new Map((account.templates ?? []).map((t) => [t.key, t]));
    for (const plan of plans) {
      const template = templates.get(plan.name)!;
      try {
        if (plan.duplicates && plan.duplicates.length > 0)
          await deleteDuplicates(ctx.people.account, plan.duplicates, ctx.tag);
        const converged = await convergeTemplate(template, templateDecisionOf(plan), ctx.people.account, {
          tag: ctx.tag,
          // Always confirmed, as the account's other creations are: the account is the record.
          arbitrate: true,
        });
        await ctx.done(plan, converged.outcome, converged.templateId);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  },

  import: accountTemplatesImport,
} satisfies AccountResourceKind;
