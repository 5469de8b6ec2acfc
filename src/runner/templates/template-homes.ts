import type { ResolvedAccount, ResolvedEnvelope, ResolvedJob } from '../../jobs/model.js';
import {
  describesAccountId,
  keptInConfiguredAccount,
  listerOf,
  notInSendingAccountMessage,
  templateListersOf,
  type TemplateLister,
} from '../../jobs/template-homes.js';
import type { PreflightProblem } from './template-check.js';

// The job files' templates in the accounts plan and run work in, as
// jobs/template-homes.ts decides where each is kept: the configured account
// (logged in to, envelopes are sent from) keeps the templates no entry lists
// and those its own entry lists; the other entries keep the ones they list.

/**
 * A job as plan and run converge its templates, logged in to the configured
 * account `configuredAccountId` (undefined: no entry describes it — `plan`
 * without a service): its top-level `templates` only those the configured
 * account keeps, and the entries that describe the configured account
 * without `templates` (theirs are the configured account's, converged once,
 * with the top-level ones, before the envelopes that use them). The other
 * entries keep theirs. The envelopes are the same objects.
 */
export function withTemplateHomes(job: ResolvedJob, configuredAccountId: string | undefined): ResolvedJob {
  if ((job.templates ?? []).length === 0) return job;
  // Every entry of the file decides, not only those of this shard (`run --shard`).
  const listers = templateListersOf(job);
  const templates = (job.templates ?? []).filter((t) => keptInConfiguredAccount(t.key, listers, configuredAccountId));
  const accounts = job.accounts.map((entry): ResolvedAccount => {
    if (
      configuredAccountId === undefined ||
      !entry.templates ||
      !describesAccountId(listerOf(entry), configuredAccountId)
    )
      return entry;
    const { templates: _kept, ...rest } = entry;
    return rest;
  });
  const { templates: _all, ...rest } = job;
  return { ...rest, ...(templates.length > 0 ? { templates } : {}), accounts };
}

/**
 * Envelopes that name (`template: <key>`, or a key among `templates:`) a
 * template of their job file that the configured account will not have
 * (only other accounts' entries list it): SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT
 * at the envelope's line, once per template and place (not per forEach row).
 * Found before anything is sent; `validate` finds the cases it can tell
 * offline (jobs/template-uses.ts).
 */
export function templateHomeProblems(
  envelopes: Iterable<ResolvedEnvelope>,
  jobs: readonly ResolvedJob[],
  configuredAccountId: string,
): PreflightProblem[] {
  const listersByJob = new Map<string, readonly TemplateLister[]>(jobs.map((j) => [j.job, templateListersOf(j)]));
  const problems: PreflightProblem[] = [];
  const reported = new Set<string>();
  for (const envelope of envelopes) {
    const listers = listersByJob.get(envelope.job) ?? [];
    const keys = [
      ...(envelope.templateKey !== undefined ? [envelope.templateKey] : []),
      ...(envelope.templateRefs ?? []).flatMap((ref) => (ref.key !== undefined ? [ref.key] : [])),
    ];
    for (const key of keys) {
      if (keptInConfiguredAccount(key, listers, configuredAccountId)) continue;
      const where = `${envelope.job}/${key}@${envelope.source.file}:${envelope.source.line}`;
      if (reported.has(where)) continue;
      reported.add(where);
      problems.push({
        code: 'SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT',
        message: notInSendingAccountMessage(envelope.key, key, listers, configuredAccountId),
        source: envelope.source,
      });
    }
  }
  return problems;
}
