import type { AccountClient } from '../../client/esignature-client.js';
import type { EnvelopeTemplate } from '../../envelope/wire.js';
import { slugOf, templateJobFile } from '../../jobs/template-job-file.js';
import { readTemplate } from '../templates/template-plan.js';
import type { ResourceImport } from '../resources/resource-kind.js';
import { signrunIdentityOf } from './import-template.js';

// How `signrun import account` writes an account's templates: the account
// catalogue's template kind's `import` (resources/kinds/account-templates.ts).
// Every template of the account is read whole; each one a job file can hold
// is written as `signrun import template` writes it — a top-level
// `templates:` entry of the job file, its documents under `templates/<key>/`
// — and the account entry lists its key.

declare module '../plan-types.js' {
  interface FoundPeople {
    /** The account's templates, each read whole (`import account` only). */
    templates?: ReadTemplate[];
  }
}

/** A template of the account, read whole. */
export interface ReadTemplate {
  templateId: string;
  template: EnvelopeTemplate;
  name: string;
}

/** Job and template keys short enough that `<job>/<key>#template` fits the custom field signrun writes it in (100). */
export const shortSlug = (name: string, fallback: string) => slugOf(name).slice(0, 45).replace(/-+$/, '') || fallback;

/** Every template of the account: its listing (every page), then each read whole. */
async function readTemplates(
  account: AccountClient,
  tag: string,
  stopIfInterrupted: (where: string) => void,
): Promise<ReadTemplate[]> {
  const ids: string[] = [];
  const count = 100;
  for (let start = 0; ;) {
    stopIfInterrupted(`while listing the account’s templates (${ids.length} so far)`);
    const page = await account.listTemplates({ startPosition: start, count }, { tag });
    const items = page.envelopeTemplates ?? [];
    for (const t of items) {
      const id = t.templateId ?? t.envelopeTemplateDefinition?.templateId;
      if (id && !ids.includes(id)) ids.push(id);
    }
    const total = Number(page.totalSetSize ?? ids.length);
    start += items.length;
    // A short page, or all of them: the listing is read (a bound keeps a service that pages forever in check).
    if (items.length === 0 || start >= total || ids.length >= 10_000) break;
  }
  const read: ReadTemplate[] = [];
  for (const [i, templateId] of ids.entries()) {
    stopIfInterrupted(`before reading template ${i + 1} of ${ids.length}`);
    const template = await readTemplate(account, templateId, tag);
    if (!template) continue; // deleted between the listing and the read
    read.push({ templateId, template, name: template.name ?? template.envelopeTemplateDefinition?.name ?? '' });
  }
  return read;
}

/**
 * `import account`'s templates. Keys: the one a template kept as code by
 * this job carries (its identity, so plan finds it unchanged), else a slug
 * of its name, made unique. Left out, and said: a template a job file
 * cannot hold (keeping it as code would lose that part at the next update),
 * and one kept as code by another job (its own job file manages it).
 */
export const accountTemplatesImport: ResourceImport = {
  field: 'templates',
  scope: 'job',
  async read(found, { people, tag, stopIfInterrupted }) {
    found.templates = await readTemplates(people.account, tag, stopIfInterrupted);
  },
  // Templates signrun keeps as code carry their job: the file takes that job when they all carry one.
  carriedJobs: (found) => [
    ...new Set((found.templates ?? []).map((r) => signrunIdentityOf(r.template)?.job).filter((j) => j !== undefined)),
  ],
  entries(found, ctx) {
    const read = found.templates ?? [];
    const keys = new Set<string>();
    const carried = new Map<string, string>();
    for (const r of read) {
      const identity = signrunIdentityOf(r.template);
      if (identity && identity.job === ctx.job && !keys.has(identity.key)) {
        keys.add(identity.key);
        carried.set(r.templateId, identity.key);
      }
    }
    const written: string[] = [];
    for (const r of read) {
      const identity = signrunIdentityOf(r.template);
      if (identity && identity.job !== ctx.job) {
        ctx.leaveOut(
          `template "${r.name}" (${r.templateId}): kept as code by job ${identity.job} (key ${identity.key}); its job file manages it (npx signrun import template ${r.templateId} writes it under that job)`,
        );
        continue;
      }
      let key = carried.get(r.templateId);
      if (!key) {
        const base = shortSlug(r.name, 'template');
        key = base;
        for (let n = 2; keys.has(key); n++) key = `${base.slice(0, 40)}-${n}`;
        keys.add(key);
      }
      const file = templateJobFile(r.template, {
        key,
        job: ctx.job,
        templateId: r.templateId,
        documentsFolder: `templates/${key}`,
      });
      const entry = file.job.templates?.[0];
      if (file.problems.length > 0 || !entry) {
        ctx.leaveOut(
          `template "${r.name}" (${r.templateId}): ${file.problems.join('; ') || 'nothing a job file can hold'}`,
        );
        keys.delete(key);
        continue;
      }
      ctx.jobTemplate(entry, r.templateId, file.documents);
      written.push(entry.key);
    }
    return written;
  },
};
