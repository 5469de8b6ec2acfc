import { existsSync, readFileSync, realpathSync } from 'node:fs';
import path from 'node:path';
import { Document, isMap, isScalar, isSeq, type Node } from 'yaml';
import type { Auth } from '../../client/auth.js';
import { AccountPeople } from '../../client/account-people.js';
import { countingClient } from './import-client.js';
import { SignrunError } from '../../errors/signrun-error.js';
import type { RawJobFile } from '../../jobs/raw-job.js';
import { identityLengthProblem } from '../../jobs/value-rules.js';
import { StagedFiles } from '../../output/staged-files.js';
import {
  accountEntryOf,
  addJobEntries,
  organizationEntryOf,
  variableTail,
  type ImportedAccountEntry,
  type NeededVariable,
} from './import-account-entry.js';
import { reachAccount, type ReachedAccount } from './import-account-login.js';
import { readOrganizationAccount, type OrganizationAccountReading } from './import-organization-account.js';
import { nothingWritten, schemaReference, stopIfInterrupted } from './import-template.js';
import { shortSlug } from './import-account-templates.js';
import type { FoundPeople } from '../plan-types.js';
import type { AccountResourceKind, ResourceImport } from '../resources/resource-kind.js';
import { resourceKinds } from '../resources/resource-kinds.js';
import { accounts } from '../resources/kinds/accounts.js';
import { groups } from '../resources/kinds/groups.js';

/** Options of {@link importAccount}. */
export interface ImportAccountOptions {
  /** The configured service and how to log in (as `signrun plan` resolves them). */
  target: { rootUrl: string; auth: Auth; adminBase?: string };
  /** An accountId or the exact name of an account the credentials reach; default: the configured account. */
  account?: string;
  /**
   * The organisation (DocuSign's Admin API) whose account `account` is: the
   * entry gets its `organizationId` and `settings` (the organisation's
   * settings export), and the contents the credentials can read.
   */
  organization?: string;
  /** Folder that a relative `jobFile`, and the default one, are in. */
  cwd: string;
  /** The job file to write; default `<key>.yaml` in `cwd`. */
  jobFile?: string;
  /** Overwrite the job file, documents and logos when they exist (default: refuse, SR_IMPORT_FILE_EXISTS). */
  force?: boolean;
  /**
   * Stops the import once the call or download in hand is finished (the
   * CLI's first Ctrl-C or SIGTERM): nothing is written, and the import
   * ends with SR_INTERRUPTED (exit 130). Default: never stopped.
   */
  signal?: AbortSignal;
}

/** What {@link importAccount} wrote. */
export interface ImportedAccount {
  accountId: string;
  accountName: string;
  job: string;
  key: string;
  /** Absolute path of the job file written. */
  jobFile: string;
  /**
   * How many of each the entry holds, by the entry's field (`permissionProfiles`,
   * `groups`, `users`, `brands`, `connect`: each kind of the catalogue that
   * imports, in its order), then `templates`.
   */
  counts: Record<string, number>;
  /** The same, in words for people: `3 permission profile(s)`, …, `2 template(s)`. */
  countWords: string[];
  /** The documents and logos written beside the job file: absolute path, size and sha256 of each. */
  files: Array<{ path: string; size: number; sha256: string }>;
  /** The `${env.*}` the file needs set before `plan` and `run` (secrets: never written). */
  variables: NeededVariable[];
  /** What the account holds that the file leaves out, and why. */
  leftOut: string[];
  /** API calls made (login included). */
  apiCalls: number;
}

const tag = 'import-account';

/**
 * `signrun import account`: writes a job file whose `accounts:` entry
 * describes an account as it is — its permission profiles, groups, users,
 * brands (logos as files under `brands/<brand>/`), Connect configurations
 * and templates (top-level `templates:`, documents under
 * `templates/<key>/`, as `signrun import template` writes them; the entry
 * lists their keys) — so that `signrun plan` of the file against that
 * account says no change for every item. Secrets are never written: the
 * passwords the file needs are `${env.*}` references, returned in
 * `variables`. Every file is written only inside the job file's folder,
 * all or nothing: each is staged whole (a temp file) and all are renamed
 * into place once every one is, the job file last; a refused download
 * leaves nothing behind. Nothing is overwritten without `force`. Nothing is changed in the account.
 */
export async function importAccount(options: ImportAccountOptions): Promise<ImportedAccount> {
  const { client, calls: apiCalls } = countingClient(options.target);
  try {
    const signal = options.signal;
    const organization =
      options.organization === undefined
        ? undefined
        : await readOrganizationAccount(client, options.target, options.organization, options.account);
    let reached: ReachedAccount;
    try {
      reached = await reachAccount(client, options.target.auth, organization?.accountId ?? options.account);
    } catch (error) {
      // An organisation's account the credentials have no user in: what its organisation says of it.
      if (!organization || !(error instanceof SignrunError && error.code === 'SR_IMPORT_ACCOUNT_NOT_FOUND'))
        throw error;
      stopIfInterrupted(signal, 'after reading the organisation');
      return await importOrganizationOnly(options, organization, apiCalls);
    }
    stopIfInterrupted(signal, 'after logging in');
    const account = reached.account;
    const info = await account.client.getAccount(account.accountId, { tag });
    const accountName =
      organization?.accountName ||
      (typeof info.accountName === 'string' && info.accountName) ||
      reached.name ||
      account.accountId;
    const planId =
      typeof info['currentPlanId'] === 'string' && info['currentPlanId'] ? info['currentPlanId'] : undefined;

    // What the account holds, each kind of the catalogue that imports reading it whole, in the catalogue's order:
    // the entry's own kinds, then the job file's (its templates).
    const people = new AccountPeople(account);
    const found = await readHoldings(people, signal, 'account');
    stopIfInterrupted(signal, 'after reading the account’s people, brands and Connect');
    await readHoldings(people, signal, 'job', found);
    // Things signrun keeps as code carry their job: the file takes that job when they all carry one (so each
    // is imported under its own identity, and plan finds it unchanged).
    const carriedJobs = [...new Set(importedKinds().flatMap((kind) => kind.import.carriedJobs?.(found) ?? []))];
    const { job, key } = jobAndKeyOf(accountName, carriedJobs.length === 1 ? carriedJobs[0] : undefined);
    const legacy = options.target.auth.kind === 'legacy';
    // Job files never read signrun's own credentials (DOCUSIGN_*PASSWORD): the user's password has its own variable.
    const imported = accountEntryOf(
      {
        accountId: account.accountId,
        accountName,
        ...(planId ? { planId } : {}),
        ...(account.userId ? { userId: account.userId } : {}),
        ...(reached.email ? { email: reached.email } : {}),
        found,
      },
      {
        key,
        job,
        passwordVariable: `SIGNRUN_ACCOUNT_PASSWORD_${variableTail(key)}`,
        passwordPurpose: legacy
          ? 'the password of the user plan and run log in as to read the account (the one this import logged in as)'
          : 'the password of the account’s user (the JWT grant does not use it, but an account entry names one: any value will do)',
      },
    );

    if (organization) {
      Object.assign(imported.entry, organizationFieldsOf(organization));
      imported.leftOut.push(...unknownSettingsLeftOut(organization));
    }

    // The job file's own (the account's templates, as `signrun import template` writes each), listed by the entry.
    addJobEntries(imported, found, job);
    const templates = imported.templates;

    const jobFile = path.resolve(options.cwd, options.jobFile ?? `${key}.yaml`);
    const folder = path.dirname(jobFile);
    // Every file's place is checked before anything is written.
    const targets = [...templates.flatMap((t) => t.documents), ...imported.files].map((t) => confined(folder, t.file));
    refuseExisting(options, jobFile, targets);

    // Every file is staged whole before any is put in place: a refused download leaves nothing (issue 36).
    const staged = new StagedFiles();
    const files: ImportedAccount['files'] = [];
    try {
      const total = templates.reduce((n, t) => n + t.documents.length, 0);
      for (const template of templates)
        for (const doc of template.documents) {
          // Between documents: the one in hand is finished first, then nothing is kept (a half import is not whole).
          stopIfInterrupted(signal, `before document ${files.length + 1} of ${total}`);
          const target = confined(folder, doc.file);
          const written = await account.downloadTemplateDocument(
            template.templateId,
            doc.documentId,
            (body) => staged.stream(target, body),
            { tag },
          );
          files.push({ path: target, size: written.size, sha256: written.sha256 });
        }
      for (const file of imported.files) {
        const target = confined(folder, file.file);
        const written = await staged.file(target, file.bytes);
        files.push({ path: target, ...written });
      }

      const file: RawJobFile = {
        version: 1,
        job,
        ...(templates.length > 0 ? { templates: templates.map((t) => t.entry) } : {}),
        accounts: [imported.entry],
      };
      await staged.file(
        jobFile,
        yamlOf(file, {
          jobFile,
          accountName,
          accountId: account.accountId,
          rootUrl: options.target.rootUrl,
          variables: imported.variables,
          leftOut: imported.leftOut,
          comments: imported.comments,
        }),
      );
    } catch (error) {
      await staged.discard();
      throw nothingWritten(error, files.length);
    }
    await staged.commit();
    const entry = imported.entry;
    return {
      accountId: account.accountId,
      accountName,
      job,
      key,
      jobFile,
      ...countsOf(entry),
      files,
      variables: imported.variables,
      leftOut: imported.leftOut,
      apiCalls: apiCalls(),
    };
  } finally {
    client.close();
  }
}

/**
 * Reads all the account holds of each kind of `scope` that imports, in the
 * catalogue's order (groups and users after the profiles they name), into
 * `found`.
 */
async function readHoldings(
  people: AccountPeople,
  signal: AbortSignal | undefined,
  scope: 'account' | 'job',
  found: FoundPeople = { profiles: [], groups: [], users: [] },
): Promise<FoundPeople> {
  const ctx = { people, tag, stopIfInterrupted: (where: string) => stopIfInterrupted(signal, where) };
  for (const kind of importedKinds())
    if ((kind.import.scope ?? 'account') === scope) await kind.import.read(found, ctx);
  return found;
}

/** The kinds of the catalogue that `import account` writes into an entry. */
function importedKinds(): Array<AccountResourceKind & { import: ResourceImport }> {
  return (resourceKinds as readonly AccountResourceKind[]).filter(
    (kind): kind is AccountResourceKind & { import: ResourceImport } => kind.import !== undefined,
  );
}

/** How many of each kind `entry` holds (by its field), with their words. */
function countsOf(entry: ImportedAccountEntry): Pick<ImportedAccount, 'counts' | 'countWords'> {
  const counts: Record<string, number> = {};
  const countWords: string[] = [];
  for (const kind of importedKinds()) {
    const held = entry[kind.import.field];
    counts[kind.import.field] = Array.isArray(held) ? held.length : 0;
    countWords.push(`${counts[kind.import.field]} ${kind.words.one}(s)`);
  }
  return { counts, countWords };
}

/** The job (`carried`, the one the account's templates carry, else the account's name as a slug) and the entry's key. */
function jobAndKeyOf(accountName: string, carried: string | undefined): { job: string; key: string } {
  const slug = shortSlug(accountName, 'account');
  const job = carried ?? slug;
  // The account's identity (`<job>/<key>#account`) must fit the custom field signrun may write it in.
  let key = slug;
  while (identityLengthProblem(job, key, `#${accounts.kind}`) && key.length > 1)
    key = key.slice(0, -1).replace(/-+$/, '');
  return { job, key };
}

/** SR_IMPORT_FILE_EXISTS when the job file or one of `targets` exists, unless `force`. */
function refuseExisting(options: ImportAccountOptions, jobFile: string, targets: readonly string[]): void {
  const existing = [jobFile, ...targets].filter((file) => existsSync(file));
  if (existing.length > 0 && options.force !== true)
    throw new SignrunError(
      'SR_IMPORT_FILE_EXISTS',
      `not overwritten: ${existing.map((f) => path.relative(options.cwd, f) || f).join(', ')}; import into a new folder (--out <folder>/${path.basename(jobFile)}) or add --force`,
      { details: { files: existing } },
    );
}

/** What an entry of an organisation's account says of it beyond an account's own contents. */
function organizationFieldsOf(organization: OrganizationAccountReading): Partial<ImportedAccountEntry> {
  return {
    organizationId: organization.organizationId,
    ...(Object.keys(organization.settings).length > 0 ? { settings: organization.settings } : {}),
  };
}

const unknownSettingsLeftOut = (organization: OrganizationAccountReading) =>
  organization.unknownSettings.length > 0
    ? [
        `settings ${organization.unknownSettings.join(', ')}: not DocuSign's accountSettingsInformation names (a job file cannot hold them)`,
      ]
    : [];

/**
 * An organisation's account whose users the credentials are not among (a
 * new account's only user is its invited administrator): the entry its
 * organisation gives — its name, id, organisation and settings —, written
 * as the whole import is (staged, then renamed; nothing overwritten without
 * `force`). Its own contents are said to be left out.
 */
async function importOrganizationOnly(
  options: ImportAccountOptions,
  organization: OrganizationAccountReading,
  apiCalls: () => number,
): Promise<ImportedAccount> {
  const { job, key } = jobAndKeyOf(organization.accountName, undefined);
  // Its groups are kept through the organisation for its accounts, as its settings are: the groups kind writes
  // what the organisation lists (resources/kinds/groups.ts).
  const { entry, leftOut: kindsLeftOut } = organizationEntryOf(
    {
      key,
      accountName: organization.accountName,
      accountId: organization.accountId,
      ...organizationFieldsOf(organization),
    },
    { profiles: [], groups: organization.groups.map((groupName) => ({ groupName })), users: [] },
    job,
    [groups],
  );
  const leftOut = [
    ...unknownSettingsLeftOut(organization),
    ...kindsLeftOut,
    `its permission profiles, users, brands, Connect configurations and templates: the credentials are no user of the account (log in as one of its users, then import it again with --organization ${organization.organizationId} --force)`,
  ];
  const jobFile = path.resolve(options.cwd, options.jobFile ?? `${key}.yaml`);
  refuseExisting(options, jobFile, []);
  const staged = new StagedFiles();
  try {
    await staged.file(
      jobFile,
      yamlOf(
        { version: 1, job, accounts: [entry] },
        {
          jobFile,
          accountName: organization.accountName,
          accountId: organization.accountId,
          rootUrl: options.target.rootUrl,
          variables: [],
          leftOut,
          comments: [],
        },
      ),
    );
  } catch (error) {
    await staged.discard();
    throw nothingWritten(error, 0);
  }
  await staged.commit();
  return {
    accountId: organization.accountId,
    accountName: organization.accountName,
    job,
    key,
    jobFile,
    ...countsOf(entry),
    files: [],
    variables: [],
    leftOut,
    apiCalls: apiCalls(),
  };
}

/**
 * An absolute path for `relative` inside `folder`, or SR_IMPORT_PATH_OUTSIDE:
 * by its name, and by where its nearest existing folder really is (a
 * symbolic link on the way would carry the write elsewhere; the file itself
 * is replaced by a rename, which never follows one).
 */
function confined(folder: string, relative: string): string {
  const absolute = path.resolve(folder, relative);
  const outside = (from: string, to: string) => {
    const inside = path.relative(from, to);
    return inside.startsWith('..') || path.isAbsolute(inside);
  };
  let existing = path.dirname(absolute);
  while (!existsSync(existing) && existing !== folder) existing = path.dirname(existing);
  if (
    path.relative(folder, absolute) === '' ||
    outside(folder, absolute) ||
    (existsSync(folder) && outside(realpathSync(folder), realpathSync(existing)))
  )
    throw new SignrunError('SR_IMPORT_PATH_OUTSIDE', `${relative} would be written outside ${folder}`, {
      details: { folder, file: relative },
    });
  return absolute;
}

/** The job schema, for the order of keys (the order it documents them in). */
type SchemaNode = { properties?: Record<string, SchemaNode>; items?: SchemaNode; $ref?: string };
let schema: { $defs?: Record<string, SchemaNode> } & SchemaNode;
function jobSchema() {
  schema ??= JSON.parse(
    readFileSync(new URL('../../../schemas/job.schema.json', import.meta.url), 'utf8'),
  ) as typeof schema;
  return schema;
}

/** `value` with every object's keys in the order the schema gives them (keys it does not know last, as they were). */
export function inSchemaOrder(value: unknown, node: SchemaNode | undefined): unknown {
  let at = node;
  for (let hops = 0; at?.$ref && hops < 10; hops++) at = jobSchema().$defs?.[at.$ref.replace('#/$defs/', '')];
  if (Array.isArray(value)) return value.map((item) => inSchemaOrder(item, at?.items));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value as Record<string, unknown>);
  const order = Object.keys(at?.properties ?? {});
  const rank = (k: string) => (order.includes(k) ? order.indexOf(k) : order.length);
  return Object.fromEntries(
    entries
      .map(([k, v], i) => [k, inSchemaOrder(v, at?.properties?.[k]), i] as const)
      .sort((a, b) => rank(a[0]) - rank(b[0]) || a[2] - b[2])
      .map(([k, v]) => [k, v]),
  );
}

/** The job file's text: the schema comment, where it came from and what to set, then the YAML (the yaml package's Document, with comments). */
function yamlOf(
  file: RawJobFile,
  about: {
    jobFile: string;
    accountName: string;
    accountId: string;
    rootUrl: string;
    variables: NeededVariable[];
    leftOut: string[];
    comments: Array<{ path: Array<string | number>; comment: string }>;
  },
): string {
  const doc = new Document(inSchemaOrder(file, jobSchema()));
  const shown = path.basename(about.jobFile);
  doc.commentBefore = [
    ` yaml-language-server: $schema=${schemaReference(path.dirname(about.jobFile))}`,
    '',
    ` Imported by \`signrun import account\` from account "${about.accountName}" (${about.accountId})`,
    ` at ${about.rootUrl}.`,
    ` \`signrun plan ${shown}\` compares it with the account (it should say no change);`,
    ' `signrun run` puts back what differs.',
    ...(about.variables.length > 0
      ? [
          ' Secrets are never written here. Set these before plan and run (in the',
          ' environment, or in a .env file beside this one that you never commit):',
          ...about.variables.map((v) => `   ${v.name}: ${v.purpose}`),
        ]
      : []),
    ...(about.leftOut.length > 0
      ? ['', ' Left out (the account keeps them as they are):', ...about.leftOut.map((l) => `   - ${l}`)]
      : []),
  ].join('\n');
  for (const { path: at, comment } of about.comments) {
    const node = doc.getIn(['accounts', 0, ...at], true) as Node | undefined;
    if (node && (isScalar(node) || isMap(node) || isSeq(node))) node.comment = comment;
  }
  return doc.toString({ lineWidth: 0 });
}
