import type { AccountClient } from '../../client/esignature-client.js';
import { ClientHttpError } from '../../client/client-errors.js';
import { serviceErrorMeans } from '../../client/service-error-classes.js';
import type { ResolvedTemplate } from '../../jobs/model.js';
import type { FileRecord, OutputFolder } from '../../output/output-folder.js';
import { templateFile } from '../../output/output-paths.js';
import type { TemplateJson } from '../../output/records.js';
import type { Journal } from '../../state/journal.js';
import { itemErrorOf } from '../envelopes/envelope-pipeline.js';
import { templateIdentityOf } from '../identity.js';
import type { TemplateDecision, TemplatePlan } from '../plan-types.js';
import type { TemplateResult } from '../run-results.js';
import { templateDefinitionOf } from './template-definition.js';
import { TemplateLedger } from './template-ledger.js';

/**
 * Deletes duplicates of a template's identity, one by one: one already
 * gone (deleted by the run that made it, racing this one) is what was
 * wanted, not a failure.
 */
export async function deleteDuplicates(
  account: AccountClient,
  templateIds: readonly string[],
  tag: string,
): Promise<void> {
  for (const templateId of templateIds) {
    try {
      await account.deleteTemplates([templateId], { tag });
    } catch (error) {
      const gone =
        error instanceof ClientHttpError &&
        (serviceErrorMeans(error, 'template-missing') || error.serviceErrorCode === 'ENVELOPE_DOES_NOT_EXIST');
      if (!gone) throw error;
    }
  }
}

/** What converging a template needs from the run. */
export interface TemplateContext {
  account: AccountClient;
  out: OutputFolder;
  /** The service's root URL as records show it (no user info or query). */
  rootUrl: string;
  now: () => Date;
  journal: Journal;
  /** Other runners may race this one: a created template is confirmed as the earliest of its identity. */
  arbitrate: boolean;
  /** The calls and retries made under a tag so far. */
  usageOf(tag: string): { calls: number; retries: number };
}

/**
 * Executes the plan of one template kept as code (template-plan.ts
 * decided): creates it (then, when runners may race, lists the account's
 * templates again: the earliest of its identity counts, and a later one —
 * this run's own, if it lost — is deleted), writes the file's version over
 * the account's, or deletes it. Each step is journalled after the service
 * answered, and `<job>/templates/<key>.json` written. Never throws.
 */
export async function runTemplate(
  plan: TemplatePlan & { template: ResolvedTemplate },
  ctx: TemplateContext,
): Promise<TemplateResult> {
  const { template, decision } = plan;
  const tag = plan.identity;
  const files: FileRecord[] = [];
  const result: TemplateResult = {
    job: template.job,
    key: template.key,
    source: template.source,
    state: template.state,
    outcome: 'failed',
    files,
    apiCalls: 0,
    retries: 0,
    ...(plan.differences.length > 0 ? { differences: plan.differences } : {}),
  };
  const record = async (templateId: string, lastAction: string, state: TemplateJson['state'] = 'present') => {
    ctx.out.join(template.job, 'templates');
    files.push(
      await ctx.out.writeJson(templateFile(template.job, template.key), {
        job: template.job,
        key: template.key,
        name: template.name,
        templateId,
        rootUrl: ctx.rootUrl,
        state,
        ...(state === 'present' ? { digest: template.digest } : {}),
        lastAction,
        at: ctx.now().toISOString(),
      } satisfies TemplateJson),
    );
  };
  try {
    if (plan.duplicates.length > 0) {
      await deleteDuplicates(ctx.account, plan.duplicates, tag);
      result.duplicatesDeleted = plan.duplicates;
    }
    const done = await convergeTemplate(template, decision, ctx.account, { tag, arbitrate: ctx.arbitrate });
    if (done.templateId) result.templateId = done.templateId;
    result.outcome = done.outcome;
    switch (decision.action) {
      case 'already-absent':
        return result;
      case 'up-to-date':
        await record(decision.templateId, 'up-to-date');
        return result;
      case 'delete':
        await ctx.journal.append({ kind: 'template', id: tag, step: 'deleted', templateId: decision.templateId });
        await record(decision.templateId, 'deleted', 'deleted');
        return result;
      case 'update':
        await ctx.journal.append({
          kind: 'template',
          id: tag,
          step: 'updated',
          templateId: decision.templateId,
          digest: template.digest,
          ...(decision.outside ? { outside: true } : {}),
        });
        if (decision.outside) result.outside = true;
        await record(decision.templateId, decision.outside ? 'put back (changed outside signrun)' : 'updated');
        return result;
      case 'create': {
        const templateId = done.templateId!;
        await ctx.journal.append({
          kind: 'template',
          id: tag,
          step: 'created',
          templateId,
          digest: template.digest,
          ...(done.adopted ? { adopted: true } : {}),
        });
        await record(templateId, done.adopted ? 'created by a run alongside' : 'created');
        return result;
      }
    }
  } catch (error) {
    result.outcome = 'failed';
    result.error = itemErrorOf(error, decision.action);
    return result;
  } finally {
    const usage = ctx.usageOf(tag);
    result.apiCalls = usage.calls;
    result.retries = usage.retries;
  }
}

/** What converging one template did in its account. */
export interface TemplateConvergence {
  outcome: 'created' | 'updated' | 'up-to-date' | 'deleted' | 'already-absent';
  /** The template that counts in that account (absent: already absent). */
  templateId?: string;
  /** Created by a run alongside: this run's own copy lost to an earlier one and was deleted. */
  adopted?: boolean;
}

/**
 * The service's part of a template's decision, in one account (the
 * configured one, or a subsidiary's: account-contents-pipeline.ts converges an
 * account entry's `templates:` with it): creates it (then, when runners may
 * race, lists the account's templates again: the earliest of its identity
 * counts, and this run's own, if it lost, is deleted), writes the file's
 * version over the account's, or deletes it. Throws what the service
 * refused; the caller journals and records.
 */
export async function convergeTemplate(
  template: ResolvedTemplate,
  decision: TemplateDecision,
  account: AccountClient,
  opts: { tag: string; arbitrate: boolean },
): Promise<TemplateConvergence> {
  const { tag } = opts;
  switch (decision.action) {
    case 'already-absent':
      return { outcome: 'already-absent' };
    case 'up-to-date':
      return { outcome: 'up-to-date', templateId: decision.templateId };
    case 'delete':
      await account.deleteTemplates([decision.templateId], { tag });
      return { outcome: 'deleted', templateId: decision.templateId };
    case 'update':
      await account.updateTemplate(decision.templateId, await templateDefinitionOf(template), { tag });
      return { outcome: 'updated', templateId: decision.templateId };
    case 'create': {
      // A duplicate is harmless (the earliest counts, the others are deleted): the call may be repeated.
      const { templateId: created } = await account.createTemplate(await templateDefinitionOf(template), {
        tag,
        repeatable: true,
      });
      let templateId = created;
      if (opts.arbitrate) {
        const ledger = new TemplateLedger(account);
        await ledger.load(tag);
        templateId = ledger.winnerOf(templateIdentityOf(template.job, template.key))?.templateId ?? created;
        // Another run's came first: this run's own is the duplicate, and this run deletes it (a racing
        // run's duplicates are theirs to delete, or the next plan's).
        if (templateId !== created) await deleteDuplicates(account, [created], tag);
      }
      return templateId === created
        ? { outcome: 'created', templateId }
        : { outcome: 'up-to-date', templateId, adopted: true };
    }
  }
}
