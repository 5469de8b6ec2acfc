import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Document } from 'yaml';
import type { Auth } from '../../client/auth.js';
import type { AccountClient } from '../../client/esignature-client.js';
import { countingClient } from './import-client.js';
import type { EnvelopeTemplate } from '../../envelope/wire.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { slugOf, templateJobFile } from '../../jobs/template-job-file.js';
import { isTemplateId } from '../../jobs/expand-envelope.js';
import { KEY } from '../../jobs/value-rules.js';
import { StagedFiles } from '../../output/staged-files.js';
import { identityFieldName, jobFieldName, templateIdentityOf } from '../identity.js';
import { readTemplate } from '../templates/template-plan.js';

/** Options of {@link importTemplate}. */
export interface ImportTemplateOptions {
  /** The configured service and how to log in (as `signrun plan` resolves them). */
  target: { rootUrl: string; auth: Auth };
  /** A templateId (a GUID), or the exact name of one template of the account. */
  template: string;
  /** Folder that a relative `jobFile`, and the default one, are in. */
  cwd: string;
  /** The job file to write; default `<key>.yaml` in `cwd`. */
  jobFile?: string;
  /** Overwrite the job file and documents when they exist (default: refuse, SR_IMPORT_FILE_EXISTS). */
  force?: boolean;
  /**
   * Stops the import once the call or download in hand is finished (the
   * CLI's first Ctrl-C or SIGTERM): nothing is written, and the import
   * ends with SR_INTERRUPTED (exit 130). Default: never stopped.
   */
  signal?: AbortSignal;
}

/** What {@link importTemplate} wrote. */
export interface ImportedTemplate {
  templateId: string;
  name: string;
  key: string;
  /** Absolute path of the job file written. */
  jobFile: string;
  /** The documents downloaded: absolute path, size and sha256 of each. */
  documents: Array<{ documentId: string; path: string; size: number; sha256: string }>;
  roles: number;
  /** API calls made (login included). */
  apiCalls: number;
}

/**
 * `signrun import template`: writes a job file holding one `templates:`
 * entry, and its documents, from a template of the configured account
 * (DESIGN.md, "Templates as code"), so that an existing template comes
 * under version control; `signrun plan` of the file then says no change.
 * The template is read by id (GET …/templates/{templateId}) or found by its
 * exact name (the listing with search_text); the documents are downloaded
 * beside the job file, under `templates/<key>/`, and the job file written
 * after them, all or nothing: every file is staged whole first, and when one
 * is refused (SR_DOWNLOAD_TOO_LARGE, a broken download, a full disk) the
 * staged ones are removed with the folders they needed, and the error says
 * nothing was written. Nothing is changed in the account.
 */
export async function importTemplate(options: ImportTemplateOptions): Promise<ImportedTemplate> {
  const { client, calls: apiCalls } = countingClient(options.target);
  try {
    const account = await client.login({ tag: 'login' });
    stopIfInterrupted(options.signal, 'after logging in');
    const templateId = isTemplateId(options.template)
      ? options.template
      : await templateIdByName(account, options.template);
    const found = await readTemplate(account, templateId, 'import');
    stopIfInterrupted(options.signal, 'after reading the template');
    if (!found)
      throw new SignrunError('SR_TEMPLATE_NOT_FOUND', `the account has no template with id ${templateId}`, {
        details: { templateId, accountId: account.accountId },
      });
    const name = found.name ?? found.envelopeTemplateDefinition?.name ?? '';
    // Job and key short enough that `<job>/<key>#template` fits the custom field signrun writes it in (100).
    const short = slugOf(name).slice(0, 45).replace(/-+$/, '') || 'template';
    const { job, key } = signrunIdentityOf(found) ?? { job: short, key: short };
    const jobFile = path.resolve(options.cwd, options.jobFile ?? `${key}.yaml`);
    const folder = path.dirname(jobFile);
    const written = templateJobFile(found, {
      key,
      job,
      templateId,
      documentsFolder: `templates/${key}`,
    });
    if (written.problems.length > 0)
      throw new SignrunError(
        'SR_TEMPLATE_NOT_IMPORTABLE',
        `template "${name}" (${templateId}) has what a job file cannot hold:\n${written.problems.map((p) => `  - ${p}`).join('\n')}`,
        { details: { templateId, problems: written.problems } },
      );

    const targets = [jobFile, ...written.documents.map((d) => path.join(folder, d.file))];
    const existing = targets.filter((file) => existsSync(file));
    if (existing.length > 0 && options.force !== true)
      throw new SignrunError(
        'SR_IMPORT_FILE_EXISTS',
        `not overwritten: ${existing.map((f) => path.relative(options.cwd, f) || f).join(', ')}`,
        { details: { files: existing } },
      );

    // Every file is staged whole before any is put in place: a refused document leaves nothing (issue 36).
    const staged = new StagedFiles();
    const documents: ImportedTemplate['documents'] = [];
    try {
      for (const [i, doc] of written.documents.entries()) {
        // Between documents: the one in hand is finished first, then nothing is kept (a half import is not whole).
        stopIfInterrupted(options.signal, `before document ${i + 1} of ${written.documents.length}`);
        const target = path.join(folder, doc.file);
        const file = await account.downloadTemplateDocument(
          templateId,
          doc.documentId,
          (body) => staged.stream(target, body),
          { tag: 'import' },
        );
        documents.push({ documentId: doc.documentId, path: target, size: file.size, sha256: file.sha256 });
      }
      // The job file last: it is put in place after the documents it names.
      await staged.file(jobFile, yamlOf(written.job, jobFile, templateId));
    } catch (error) {
      await staged.discard();
      throw nothingWritten(error, documents.length);
    }
    await staged.commit();
    return {
      templateId,
      name,
      key,
      jobFile,
      documents,
      roles: Object.values(written.job.templates?.[0]?.recipients ?? {}).flat().length,
      apiCalls: apiCalls(),
    };
  } finally {
    client.close();
  }
}

/**
 * SR_INTERRUPTED (exit 130) when `signal` has fired: the import stops at
 * this point, `when` saying where. Nothing is written by an import that
 * stops; running it again starts over.
 */
export function stopIfInterrupted(signal: AbortSignal | undefined, when: string): void {
  if (signal?.aborted !== true) return;
  throw new SignrunError('SR_INTERRUPTED', `import interrupted (Ctrl-C or SIGTERM) ${when}: nothing was written`, {
    hint: 'Run the same import again: it starts over.',
    details: { written: [] },
  });
}

/**
 * `error` saying that the import wrote nothing: a coded error keeps its code
 * and details, its message saying what was discarded; anything else passes
 * as it is (SR_INTERNAL: the temp files are gone all the same).
 */
export function nothingWritten(error: unknown, discarded: number): unknown {
  if (!(error instanceof SignrunError)) return error;
  const said = discarded > 0 ? `; the ${discarded} file(s) downloaded before it were discarded` : '';
  return new SignrunError(
    error.code,
    `${error.message.replace(/: (stopped, )?nothing was written$/, '')}: import stopped${said}, nothing was written`,
    {
      cause: error,
      ...(error.hint !== undefined ? { hint: error.hint } : {}),
      ...(error.location !== undefined ? { location: error.location } : {}),
      details: { ...error.details, written: [] },
    },
  );
}

/**
 * The job and key a template kept as code by signrun carries (its `signrun`
 * custom field, `<job>/<key>#template`, and `signrunJob`): imported under
 * them, the entry is the one that wrote it, so `plan` finds it by its
 * identity and its digest as well as by its id.
 */
export function signrunIdentityOf(template: EnvelopeTemplate): { job: string; key: string } | undefined {
  const fields = template.customFields?.textCustomFields ?? [];
  const identity = fields.find((f) => f.name === identityFieldName)?.value;
  const job = fields.find((f) => f.name === jobFieldName)?.value;
  if (!identity || !job || !identity.startsWith(`${job}/`)) return undefined;
  const key = identity.slice(job.length + 1).replace(/#template$/, '');
  if (templateIdentityOf(job, key) !== identity || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(job) || !KEY.test(key))
    return undefined;
  return { job, key };
}

/** The id of the one template named exactly `name`: every page of the listing filtered by search_text. */
async function templateIdByName(account: AccountClient, name: string): Promise<string> {
  const listed: EnvelopeTemplate[] = [];
  const count = 100;
  for (let start = 0; ;) {
    const page = await account.listTemplates({ startPosition: start, count, searchText: name }, { tag: 'import' });
    const items = page.envelopeTemplates ?? [];
    listed.push(...items);
    const total = Number(page.totalSetSize ?? listed.length);
    start += items.length;
    // A short page, or all of them: the listing is read (a bound keeps a service that pages forever in check).
    if (items.length === 0 || start >= total || listed.length >= 10_000) break;
  }
  const nameOf = (t: EnvelopeTemplate) => t.name ?? t.envelopeTemplateDefinition?.name ?? '';
  const idOf = (t: EnvelopeTemplate) => t.templateId ?? t.envelopeTemplateDefinition?.templateId ?? '';
  const exact = listed.filter((t) => nameOf(t) === name && idOf(t) !== '');
  if (exact.length === 1) return idOf(exact[0]!);
  const candidates = (exact.length > 1 ? exact : listed).slice(0, 20).map((t) => `"${nameOf(t)}" (${idOf(t)})`);
  if (exact.length > 1)
    throw new SignrunError(
      'SR_TEMPLATE_NAME_AMBIGUOUS',
      `${exact.length} templates are named "${name}": ${candidates.join(', ')}${exact.length > 20 ? ', …' : ''}`,
      { details: { name, templateIds: exact.map(idOf) } },
    );
  throw new SignrunError(
    'SR_TEMPLATE_NOT_FOUND',
    `the account has no template named exactly "${name}"${
      candidates.length > 0 ? `; templates whose name holds it: ${candidates.join(', ')}` : ''
    }`,
    { details: { name, candidates: listed.map((t) => ({ name: nameOf(t), templateId: idOf(t) })).slice(0, 20) } },
  );
}

/** The job file's text: the schema comment (for editors), where it came from, then the YAML. */
function yamlOf(job: object, jobFile: string, templateId: string): string {
  const doc = new Document(job);
  doc.commentBefore = [
    ` yaml-language-server: $schema=${schemaReference(path.dirname(jobFile))}`,
    '',
    ` Imported by \`signrun import template\` from template ${templateId}. \`signrun plan\``,
    ' compares this entry with the account’s template; `signrun run` puts it back when they differ.',
  ].join('\n');
  return doc.toString({ lineWidth: 0 });
}

/**
 * The job schema as the job file's folder reaches it: signrun installed in a
 * node_modules above it, else the schema of the signrun running.
 */
export function schemaReference(folder: string): string {
  for (let dir = folder; ; dir = path.dirname(dir)) {
    const installed = path.join(dir, 'node_modules', 'signrun', 'schemas', 'job.schema.json');
    if (existsSync(installed)) return posix(path.relative(folder, installed));
    if (path.dirname(dir) === dir) break;
  }
  return posix(path.relative(folder, fileURLToPath(new URL('../../../schemas/job.schema.json', import.meta.url))));
}

function posix(relative: string): string {
  return relative.split(path.sep).join('/');
}
