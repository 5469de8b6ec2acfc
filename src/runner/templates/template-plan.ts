import type { AccountClient } from '../../client/esignature-client.js';
import { ClientHttpError } from '../../client/client-errors.js';
import { serviceErrorMeans } from '../../client/service-error-classes.js';
import type { EnvelopeTemplate } from '../../envelope/wire.js';
import type { ResolvedJob, ResolvedTemplate } from '../../jobs/model.js';
import type { JournalProgress } from '../../state/journal-progress.js';
import { digestFieldName, identityOf, templateIdentityOf } from '../identity.js';
import type { TemplateDecision, TemplatePlan } from '../plan-types.js';
import { templateShapeOf } from './template-definition.js';
import { templateDifferences } from './template-differences.js';
import type { TemplateLedger } from './template-ledger.js';

/** What planning templates reads. */
export interface TemplatePlanSources {
  /** Logged in (absent: offline, or the run's own empty sandbox: every present template is created). */
  account?: AccountClient;
  /** The account's marked templates (absent with `account` absent). */
  ledger?: TemplateLedger;
  journal?: JournalProgress;
  /** Other runners may race this one: a created template is confirmed by a second listing. */
  arbitrate: boolean;
  keepItems?: boolean;
}

/**
 * The one decision for each template kept as code. The account is the
 * truth: a template is found by the identity it carries (else by the id
 * the job file gives, else by the one this state's journal recorded) and
 * read once; the file's definition is compared with it
 * (template-differences.ts), and the digest signrun wrote on it says whether
 * the file changed since signrun last wrote it. Returns the plans and the
 * reads made.
 */
export async function planTemplates(
  jobs: readonly ResolvedJob[],
  sources: TemplatePlanSources,
): Promise<{ plans: TemplatePlan[]; reads: number }> {
  const plans: TemplatePlan[] = [];
  let reads = 0;
  for (const job of jobs)
    for (const template of job.templates ?? []) {
      const journalled = sources.journal?.templates.get(identityOf(template));
      const planned = await planTemplate(template, {
        ...sources,
        ...(journalled?.present ? { journalledId: journalled.templateId } : {}),
      });
      reads += planned.reads;
      plans.push(planned.plan);
    }
  return { plans, reads };
}

/**
 * The decision for one template in one account (the configured account's,
 * or a subsidiary's: account-contents-plan.ts plans an account entry's
 * `templates:` with it): found by the identity it carries in that account's
 * listing, else by the id the job file gives, else by `journalledId` (what
 * this state recorded for it there); read once and compared.
 */
export async function planTemplate(
  template: ResolvedTemplate,
  sources: Omit<TemplatePlanSources, 'journal'> & {
    journalledId?: string;
    /** What its calls are counted under (default: `<job>/<key>`, the template's own). */
    tag?: string;
  },
): Promise<{ plan: TemplatePlan; reads: number }> {
  const marked = templateIdentityOf(template.job, template.key);
  const winner = sources.ledger?.winnerOf(marked);
  const duplicates = sources.ledger?.duplicatesOf(marked).map((d) => d.templateId) ?? [];
  const candidate = winner?.templateId ?? template.templateId ?? sources.journalledId;
  let found: EnvelopeTemplate | undefined;
  let reads = 0;
  if (sources.account && candidate) {
    reads += 1;
    found = await readTemplate(sources.account, candidate, sources.tag ?? identityOf(template));
  }
  const { decision, differences } = decideTemplate(template, found && candidate, found);
  const item: TemplatePlan = {
    kind: 'template',
    job: template.job,
    key: template.key,
    identity: identityOf(template),
    decision,
    differences,
    duplicates,
    apiCalls: templateCalls(decision, sources.arbitrate) + (duplicates.length > 0 ? 1 : 0),
  };
  return { plan: sources.keepItems ? { ...item, template } : item, reads };
}

function decideTemplate(
  template: ResolvedTemplate,
  templateId: string | undefined,
  found: EnvelopeTemplate | undefined,
): { decision: TemplateDecision; differences: string[] } {
  if (template.state === 'absent')
    return {
      decision: templateId ? { action: 'delete', templateId } : { action: 'already-absent' },
      differences: [],
    };
  if (!templateId || !found) return { decision: { action: 'create' }, differences: [] };
  const differences = templateDifferences(templateShapeOf(template), found);
  const written = found.customFields?.textCustomFields?.find((f) => f.name === digestFieldName)?.value;
  // The file is what signrun last wrote, yet the account's template is not: changed outside signrun.
  if (written === template.digest && differences.length > 0)
    return { decision: { action: 'update', templateId, outside: true }, differences };
  // Nothing differs that the account shows, and the file's content is what was written (or the
  // template came from the account itself, by `signrun import template`, and was never written).
  if (differences.length === 0 && (written === template.digest || written === undefined))
    return { decision: { action: 'up-to-date', templateId }, differences };
  return {
    decision: { action: 'update', templateId, outside: false },
    differences: differences.length > 0 ? differences : ['documents: their content changed in the file'],
  };
}

/** The calls a run makes for a template's decision (the confirming listing after a create, when runners may race). */
export function templateCalls(decision: TemplateDecision, arbitrate: boolean): number {
  switch (decision.action) {
    case 'create':
      // Create, then the listing that confirms it is the earliest of its identity.
      return arbitrate ? 2 : 1;
    case 'update':
    case 'delete':
      return 1;
    case 'up-to-date':
    case 'already-absent':
      return 0;
  }
}

/** GET …/templates/{templateId}; undefined when the account has no such template (deleted, or never there). */
export async function readTemplate(
  account: AccountClient,
  templateId: string,
  tag: string,
): Promise<EnvelopeTemplate | undefined> {
  try {
    return await account.getTemplate(templateId, { tag });
  } catch (error) {
    if (error instanceof ClientHttpError && (error.status === 404 || serviceErrorMeans(error, 'template-missing')))
      return undefined;
    throw error;
  }
}
