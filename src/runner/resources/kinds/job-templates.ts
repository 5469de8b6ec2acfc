import type { TemplatePlan } from '../../plan-types.js';
import { TemplateLedger } from '../../templates/template-ledger.js';
import { planTemplates } from '../../templates/template-plan.js';
import { runTemplate } from '../../templates/template-pipeline.js';
import type { JobResourceKind } from '../job-resource-kind.js';

// The job file's top-level `templates:` (templates kept as code) as a
// resource kind whose parent is the job: kept in the account signrun runs
// against, planned once for all the jobs (one listing of the account's
// templates by the identity each carries, one read of each found),
// converged one after the other before any envelope (envelopes name them by
// key). Its journal records are its own (`kind: 'template'`, id `<job>/<key>`,
// steps created / updated / deleted: template-pipeline.ts writes them,
// journal-progress.ts reads them), not an account item's: the same records
// as before it moved onto the interface, so nothing is re-created after an
// upgrade. The work itself is templates/ (template-plan.ts decides,
// template-pipeline.ts converges), shared with an account entry's
// `templates:` (account-templates.ts).

/** How `plan` says a template's decision. */
const planWords = {
  create: 'create template',
  update: 'update template',
  'up-to-date': 'no change',
  delete: 'delete template',
  'already-absent': 'already absent',
} as const;

/** `plan`'s lines for one template: its decision, calls and id, then what differs and its duplicates. */
function templatePlanLines(template: TemplatePlan, width: number): string[] {
  const d = template.decision;
  const what = d.action === 'update' && d.outside ? 'changed outside' : planWords[d.action];
  const id = 'templateId' in d ? `  ${d.templateId}` : '';
  const lines = [`  ${what.padEnd(16)} ${template.identity.padEnd(width)} ${template.apiCalls} call(s)${id}`];
  if (d.action === 'update' && d.outside)
    lines.push('      changed outside signrun since signrun wrote it; `run` puts the job file’s version back:');
  for (const difference of template.differences) lines.push(`      ${difference}`);
  if (template.duplicates.length > 0)
    lines.push(
      `      ${template.duplicates.length} duplicate(s) of its identity to delete: ${template.duplicates.join(', ')}`,
    );
  return lines;
}

export const jobTemplates = {
  kind: 'template' as const,
  parent: 'job' as const,
  field: 'templates' as const,
  words: { one: 'template', summary: 'templates' },
  count: (job) => job.templates?.length ?? 0,

  /** One listing of the account's templates (only when some job keeps one), then planTemplates: one read of each found. */
  async plan(jobs, ctx) {
    const asCode = jobs.some((j) => (j.templates?.length ?? 0) > 0);
    const ledger = ctx.account && asCode ? new TemplateLedger(ctx.account) : undefined;
    await ledger?.load();
    const planned = await planTemplates(jobs, {
      arbitrate: ctx.arbitrate,
      ...(ctx.account ? { account: ctx.account } : {}),
      ...(ledger ? { ledger } : {}),
      ...(ctx.journal ? { journal: ctx.journal } : {}),
      ...(ctx.keepItems ? { keepItems: true } : {}),
    });
    return { plans: planned.plans, reads: (ledger?.calls ?? 0) + planned.reads };
  },

  /** One after the other (they are few), each result counted and told as it is done. */
  async converge(plans, ctx) {
    const { collector, emit, interrupted, ...context } = ctx;
    const templateIds = new Map<string, string>();
    for (const templatePlan of plans) {
      if (!templatePlan.template || interrupted()) continue;
      const result = await runTemplate({ ...templatePlan, template: templatePlan.template }, context);
      collector.templateDone(result);
      emit({ type: 'template:done', result });
      if (result.templateId && result.outcome !== 'deleted' && result.outcome !== 'failed')
        templateIds.set(templatePlan.identity, result.templateId);
    }
    return templateIds;
  },

  planLines: templatePlanLines,

  summaryText(m, { red }) {
    const words = [
      m.created ? `${m.created} created` : '',
      m.updated ? `${m.updated} updated` : '',
      m.upToDate ? `${m.upToDate} up to date` : '',
      m.deleted ? `${m.deleted} deleted` : '',
      m.alreadyAbsent ? `${m.alreadyAbsent} already absent` : '',
      m.failed ? red(`${m.failed} failed`) : '',
    ].filter(Boolean);
    return `template(s): ${words.join(', ')}`;
  },

  resultLines(results, { red, safe }) {
    const lines: string[] = [];
    for (const m of results) {
      const name = safe(`${m.job}/${m.key}`);
      if (m.outcome === 'failed')
        lines.push(`  ${red(`template ${name} failed`)}: ${m.error?.code ?? ''} ${safe(m.error?.message ?? '')}`);
      else if (m.outcome === 'updated')
        lines.push(
          `  template ${name} ${m.outside ? 'had been changed outside signrun: put back to the job file’s version' : 'updated from the job file'} (${safe((m.differences ?? []).slice(0, 3).join('; '))}${(m.differences?.length ?? 0) > 3 ? '; …' : ''})`,
        );
      else if (m.outcome === 'created') lines.push(`  template ${name} created: ${safe(m.templateId ?? '')}`);
      else if (m.outcome === 'deleted') lines.push(`  template ${name} deleted`);
    }
    return lines;
  },
} satisfies JobResourceKind<'templates'>;
