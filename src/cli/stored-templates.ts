import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../config/index.js';
import { isSignrunError } from '../errors/index.js';
import { loadJobs } from '../jobs/index.js';
import type { ResolvedJob, ResolvedTemplate } from '../jobs/model.js';
import { importTemplate } from '../runner/import/import-template.js';
import { jwtSettingsOf, resolveTarget } from '../runner/target.js';
import type { CommandIO } from './io.js';

/** What reading the stored templates for a preview gave. */
export interface StoredTemplates {
  /** By templateId (lower case). */
  templates: Map<string, ResolvedTemplate>;
  /** Each template that could not be read or drawn, and why. */
  problems: string[];
  apiCalls: number;
  /** Removes the documents downloaded: call once the preview is drawn. */
  close: () => Promise<void>;
}

/**
 * The stored templates the envelopes use (`templateId`), read once each
 * from the configured service for `signrun preview` (DESIGN.md: "one read
 * of a template that is not defined as code"): each is imported as
 * `signrun import template` would, into a temporary folder, and loaded as a
 * template of a job file, so the preview draws it by the same code. Nothing
 * is read when no service is configured (DOCUSIGN_ROOT_URL or the JWT
 * grant) or no envelope needs it.
 */
export async function readStoredTemplates(jobs: readonly ResolvedJob[], io: CommandIO): Promise<StoredTemplates> {
  const ids = [
    ...new Set(
      jobs.flatMap((j) =>
        j.envelopes.flatMap((e) => [
          ...(e.kind === 'template' && e.templateKey === undefined && e.templateId ? [e.templateId.toLowerCase()] : []),
          // A composite envelope's stored templates (its templates of the file need no read).
          ...(e.templateRefs ?? []).flatMap((r) =>
            r.key === undefined && r.templateId ? [r.templateId.toLowerCase()] : [],
          ),
        ]),
      ),
    ),
  ];
  const none: StoredTemplates = { templates: new Map(), problems: [], apiCalls: 0, close: async () => {} };
  if (ids.length === 0) return none;
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env });
  if (!loaded.ok || (!loaded.config.rootUrl && !jwtSettingsOf(loaded.config))) return none;
  const target = await resolveTarget(loaded.config, () => {
    throw new Error('preview never starts a sandbox');
  });
  const folder = await mkdtemp(path.join(tmpdir(), 'signrun-preview-templates-'));
  const out: StoredTemplates = {
    ...none,
    close: () => rm(folder, { recursive: true, force: true }),
  };
  try {
    for (const id of ids) {
      try {
        const imported = await importTemplate({
          target: { rootUrl: target.rootUrl, auth: target.auth },
          template: id,
          cwd: folder,
          jobFile: path.join(folder, `${id}.yaml`),
        });
        out.apiCalls += imported.apiCalls;
        const job = await loadJobs([imported.jobFile], { cwd: folder, env: {} });
        const template = job.ok ? job.jobs[0]?.templates?.[0] : undefined;
        if (template) out.templates.set(id, template);
        else
          out.problems.push(
            `template ${id}: read, but its definition does not load (${job.ok ? 'no template' : job.errors[0]?.message})`,
          );
      } catch (error) {
        out.problems.push(
          `template ${id}: ${isSignrunError(error) ? `${error.code} ${error.message}` : String(error)}`,
        );
      }
    }
  } finally {
    await target.close();
  }
  return out;
}
