import { createHash } from 'node:crypto';
import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedEnvelope, ResolvedTemplate } from './model.js';
import type { RawJobFile } from './raw-job.js';
import { substituteReferences } from './references.js';
import { resolveEnvelopes } from './resolve-envelopes.js';
import { fieldName } from './schema-check.js';
import { KEY } from './value-rules.js';

/**
 * The templates of a job file (`templates:`). A present template's documents
 * and roles are an envelope's, resolved and checked by the envelopes' code
 * (resolveEnvelopes over `templates`: files confined and read, tabs on their
 * pages, anchors found); what only a template has (name, description,
 * state, a known id) is read here. Errors go to ctx.sink; a template with
 * one is left out.
 */
export async function resolveTemplates(
  job: RawJobFile,
  ctx: JobContext,
  folderReal: string,
): Promise<ResolvedTemplate[]> {
  const raws = job.templates ?? [];
  if (raws.length === 0) return [];
  const sub = (value: string): string => substituteReferences(value, (_kind, name) => ctx.env(name) ?? '');
  const contents = new Map<string, ResolvedEnvelope>();
  for (const content of await resolveEnvelopes(job, ctx, folderReal, 'templates')) contents.set(content.key, content);
  const templates: ResolvedTemplate[] = [];
  const absentKeys = new Set<string>();
  for (const [index, raw] of raws.entries()) {
    const key = sub(raw.key);
    const state = raw.state ?? 'present';
    const base = {
      job: job.job,
      key,
      source: { file: ctx.file, ...ctx.locator.locate(['templates', index]) },
      index,
    };
    const known = raw.templateId !== undefined ? { templateId: sub(raw.templateId) } : {};
    const texts = {
      name: sub(raw.name),
      ...(raw.description !== undefined ? { description: sub(raw.description) } : {}),
      ...(raw.emailSubject !== undefined ? { emailSubject: sub(raw.emailSubject) } : {}),
      ...(raw.emailBlurb !== undefined ? { emailBlurb: sub(raw.emailBlurb) } : {}),
    };
    if (state === 'absent') {
      // Its content was not resolved: its key is checked here.
      const path = ['templates', index, 'key'];
      if (!KEY.test(key) || absentKeys.has(key) || contents.has(key))
        ctx.sink.add(
          KEY.test(key) ? 'SR_DUPLICATE_TEMPLATE_KEY' : 'SR_SCHEMA_VALUE',
          KEY.test(key)
            ? `template key ${key} is used twice in job ${job.job}`
            : `template key ${JSON.stringify(key)} must be letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit`,
          placeOf(ctx, path),
          { field: fieldName(path) },
        );
      absentKeys.add(key);
      templates.push({ ...base, state, ...known, ...texts, documents: [], recipients: [], digest: '' });
      continue;
    }
    const content = contents.get(key);
    if (!content || content.source.line !== base.source.line) continue; // reported by resolveEnvelopes
    const template: Omit<ResolvedTemplate, 'digest'> = {
      ...base,
      state,
      ...known,
      ...texts,
      documents: content.documents,
      recipients: content.recipients,
    };
    templates.push({ ...template, digest: templateDigest(template, content.digest) });
  }
  return templates;
}

/**
 * sha256 of the template as signrun writes it: its own fields, then its
 * documents and roles by the envelope digest of the same content (documents
 * by sha256, tabs, kinds), plus the role names, which that digest leaves
 * out. Written on the template (a custom field), it tells later runs, in
 * any account, whether the file changed since signrun wrote it.
 */
function templateDigest(template: Omit<ResolvedTemplate, 'digest'>, contentDigest: string): string {
  const canonical = [
    'template',
    template.name,
    template.description ?? null,
    template.emailSubject ?? null,
    template.emailBlurb ?? null,
    template.recipients.map((r) => r.roleName ?? null),
    contentDigest,
  ];
  return createHash('sha256').update(JSON.stringify(canonical)).digest('hex');
}
