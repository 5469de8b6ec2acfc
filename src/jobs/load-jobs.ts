import { readFileSync } from 'node:fs';
import { realpath } from 'node:fs/promises';
import { dirname, isAbsolute, join, relative } from 'node:path';
import { checkReferences } from './check-references.js';
import { DiagnosticSink } from './diagnostic-sink.js';
import { parseDotenv } from './dotenv.js';
import { findJobFiles } from './find-job-files.js';
import { placeOf, type JobContext } from './job-context.js';
import { parseJobYaml } from './job-yaml.js';
import { limits } from './limits.js';
import type { LoadResult, LoadStats, ResolvedJob } from './model.js';
import { pdfFactsReader } from './pdf-facts-reader.js';
import { documentTextReader } from './document-text.js';
import type { RawJobFile } from './raw-job.js';
import { resolveAccounts } from './resolve-accounts.js';
import { resolveOrganization, withMemberships } from './resolve-organization.js';
import { resolveEnvelopes } from './resolve-envelopes.js';
import { resolveTemplates } from './resolve-templates.js';
import { listerOf } from './template-homes.js';
import { checkBrandUses } from './brand-uses.js';
import { checkTemplateUses } from './template-uses.js';
import { checkJobSchema } from './schema-check.js';
import { readSourceText } from './source-text.js';
import { jobFolderProblem } from '../output/output-names.js';
import { interruptionPoint } from './load-interrupted.js';
import type { AccountEntryKind } from './account-entries/account-entry-kind.js';
import { accountEntryKinds } from './account-entries/account-entry-kinds.js';

/** Where to look for job files and references. */
export interface LoadJobsOptions {
  /** Folder that relative paths and globs start from; diagnostics name files relative to it. */
  cwd: string;
  /** Process environment: `${env.NAME}` is looked up here first, then in the job folder's .env file. */
  env: NodeJS.ProcessEnv;
  /**
   * Stops the load once the job file, row or document in hand is checked
   * (the CLI's first Ctrl-C or SIGTERM): loadJobs then throws SR_INTERRUPTED
   * (exit 130). Default: never stopped.
   */
  signal?: AbortSignal;
  /**
   * The job file's side of what an account entry keeps (its fields, schema
   * fragments and resolving), in the catalogue's order. Default: the
   * catalogue's (account-entries/account-entry-kinds.ts, generated from it);
   * a kind given here that the checked-in schema lacks is validated with a
   * schema compiled for the list (a test's own kind).
   */
  accountEntries?: readonly AccountEntryKind[];
  /**
   * false: envelopes are checked but not digested (their `digest` is ''), for
   * a caller that only checks (`validate`): the digest is what `run`
   * compares with what it sent, and the canonical form of each of 10,000
   * envelopes was a twentieth of validate's main thread (issue 37).
   * Default: true.
   */
  digests?: boolean;
  /**
   * Keep each forEach row's envelope as its row, expanded again when read
   * (jobs/row-envelope.ts): `signrun run` does, so that a campaign's memory
   * does not hold every expanded envelope from loading to its send (issue
   * 37). Every row is still expanded and checked here, before anything is
   * sent. Default false: every envelope is a plain object.
   */
  streamRows?: boolean;
}

/**
 * Loads job files: globs them, parses YAML with positions, validates against
 * the schema and the semantic rules, expands forEach, numbers ids,
 * substitutes references, reads PDF facts and computes digests. User errors
 * come back as data (`ok: false` with diagnostics); it never throws for them.
 * It throws SR_INTERRUPTED when `options.signal` fires.
 */
export async function loadJobs(patterns: string[], options: LoadJobsOptions): Promise<LoadResult> {
  const sink = new DiagnosticSink();
  const entryKinds = options.accountEntries ?? accountEntryKinds;
  // The checked-in schema has the catalogue's kinds' fields; another's are compiled in for this load.
  const schemaKinds = entryKinds.every((kind) => accountEntryKinds.includes(kind)) ? undefined : entryKinds;
  const stats: LoadStats = { files: 0, jobs: 0, envelopes: 0, accounts: 0 };
  const show = (path: string): string => {
    const rel = relative(options.cwd, path);
    return rel !== '' && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
  };
  const { files, unmatched } = await findJobFiles(patterns, options.cwd);
  for (const pattern of unmatched) {
    sink.add('SR_NO_JOB_FILES', `${pattern} matches no job file`, { file: pattern, line: 1, column: 1 });
  }
  if (files.length === 0 && unmatched.length === 0) {
    sink.add('SR_NO_JOB_FILES', `${patterns.join(' ')} contains no *.yaml or *.yml file`, {
      file: patterns[0] ?? '.',
      line: 1,
      column: 1,
    });
  }
  stats.files = files.length;

  const pdfFacts = pdfFactsReader();
  const documentText = documentTextReader();
  try {
    return await loadFiles();
  } finally {
    documentText.close();
    pdfFacts.close();
  }

  async function loadFiles(): Promise<LoadResult> {
    const dotenvs = new Map<string, Map<string, string>>();
    const jobs: ResolvedJob[] = [];
    const jobNames = new Map<string, string>();
    for (const [i, file] of files.entries()) {
      const shown = show(file);
      await interruptionPoint(options.signal, () => `before job file ${i + 1} of ${files.length} (${shown})`, i, 1);
      const folder = dirname(file);
      const read = await readSourceText(file, limits.jobFileBytes, `job file ${shown}`);
      if (!read.ok) {
        sink.add(read.code, read.message, { file: shown, line: 1, column: 1 });
        continue;
      }
      sink.addSource(shown, read.source);
      // A tab placed by anchor: its documents' text will be read; pdf.js starts compiling now, on the side.
      if (read.source.text.includes('anchorString')) documentText.warm();
      const parsed = parseJobYaml(read.source.text);
      if (!parsed.ok) {
        for (const problem of parsed.problems)
          sink.add(problem.code, problem.message, { file: shown, line: problem.line, column: problem.column });
        continue;
      }
      if (parsed.value === null || typeof parsed.value !== 'object' || Array.isArray(parsed.value)) {
        sink.add(
          'SR_YAML_NOT_A_JOB',
          `${shown} is ${parsed.value === null || parsed.value === undefined ? 'empty' : 'not a mapping'}; a job file starts with "version: 1"`,
          { file: shown, ...parsed.locator.locate([]) },
        );
        continue;
      }
      const ctx: JobContext = {
        file,
        folder,
        shown,
        show,
        locator: parsed.locator,
        sink,
        env: (name) => options.env[name] ?? dotenvFor(folder, dotenvs).get(name),
        pdfFacts,
        documentText,
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.digests === false ? { digests: false } : {}),
        ...(options.streamRows ? { streamRows: true } : {}),
      };
      const problems = await checkJobSchema(parsed.value, schemaKinds);
      for (const problem of problems)
        sink.add(problem.code, problem.message, placeOf(ctx, problem.path, problem.at), {
          field: problem.field,
          ...(problem.hint !== undefined ? { hint: problem.hint } : {}),
        });
      if (problems.length > 0) continue;
      const raw = parsed.value as RawJobFile;
      stats.jobs += 1;

      const before = sink.errorCount;
      const earlier = jobNames.get(raw.job);
      if (earlier !== undefined)
        sink.add('SR_JOB_NAME_DUPLICATE', `job name ${raw.job} is also used by ${earlier}`, placeOf(ctx, ['job']), {
          field: 'job',
        });
      else jobNames.set(raw.job, shown);
      const folderProblem = jobFolderProblem(raw.job);
      if (folderProblem)
        sink.add(
          'SR_SCHEMA_VALUE',
          `job name ${raw.job} cannot name a folder of the output folder: ${folderProblem}`,
          placeOf(ctx, ['job']),
          {
            field: 'job',
          },
        );
      if (!raw.envelopes?.length && !raw.accounts?.length && !raw.templates?.length && !raw.organization) {
        sink.add(
          'SR_JOB_EMPTY',
          `job ${raw.job} has no envelopes, templates or accounts`,
          placeOf(ctx, ['job'], 'key'),
          {
            field: 'job',
          },
        );
        continue;
      }
      if (!checkReferences(raw, ctx)) continue;
      const folderReal = await realpath(folder);
      const templates = await resolveTemplates(raw, ctx, folderReal);
      // After the templates: an account entry may install some of them (`accounts[].templates`).
      const organization = await resolveOrganization(raw, ctx, folderReal);
      const accounts = withMemberships(resolveAccounts(raw, ctx, templates, entryKinds), organization);
      checkTemplateUses(raw, ctx);
      checkBrandUses(raw, ctx);
      const envelopes = await resolveEnvelopes(raw, ctx, folderReal);
      stats.envelopes += envelopes.length;
      if (templates.length > 0) stats.templates = (stats.templates ?? 0) + templates.length;
      stats.accounts += accounts.length;
      if (sink.errorCount === before)
        jobs.push({
          file,
          job: raw.job,
          envelopes,
          // Where the templates are kept depends on every entry of the file, whatever shard runs it.
          ...(templates.length > 0 ? { templates, templateListers: accounts.map(listerOf) } : {}),
          accounts,
          ...(organization ? { organization } : {}),
        });
    }

    const byPlace = (
      a: { file: string; line: number; column: number },
      b: { file: string; line: number; column: number },
    ) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column;
    const errors = sink.errors.sort(byPlace);
    const warnings = sink.warnings.sort(byPlace);
    if (errors.length > 0) return { ok: false, errors, warnings, stats };
    return { ok: true, jobs, warnings, stats };
  }
}

/** The job folder's .env file, read once per folder; missing means empty. */
function dotenvFor(folder: string, cache: Map<string, Map<string, string>>): Map<string, string> {
  let values = cache.get(folder);
  if (!values) {
    try {
      values = parseDotenv(readFileSync(join(folder, '.env'), 'utf8'));
    } catch {
      values = new Map();
    }
    cache.set(folder, values);
  }
  return values;
}
