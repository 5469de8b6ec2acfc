import type { RawAccount, RawTemplate } from '../../jobs/raw-job.js';
import { slugOf, type ImportedDocument } from '../../jobs/template-job-file.js';
import type { FoundPeople } from '../plan-types.js';
import type { AccountResourceKind, ImportEntryContext } from '../resources/resource-kind.js';
import { resourceKinds } from '../resources/resource-kinds.js';
import { findUser } from '../resources/kinds/users.js';

// What `signrun import account` writes of an account: the `accounts:` entry
// that `signrun plan` compares with that very account and finds equal. The
// entry's own fields are written here; what it holds, by each kind of the
// catalogue (its module's `import`: every field it writes is one its
// `decide` compares, as the account answers it). Pure: no call, no file.

/** An account entry as the import writes it: the job schema's account, with the templates it lists. */
export type ImportedAccountEntry = RawAccount & { templates?: string[] };

/** The account as the import read it: its own fields, and what it holds of each kind of the catalogue. */
export interface AccountReading {
  accountId: string;
  accountName: string;
  /** The account's plan (GET …/accounts/{accountId}: currentPlanId), when the service says it. */
  planId?: string;
  /** The user signrun logs in as to manage the account: the one logged in now. */
  userId?: string;
  /** That user's email, when the login gave it (found among the users otherwise). */
  email?: string;
  /** What each kind's `import.read` found (closed users are left out). */
  found: FoundPeople;
}

/** A `${env.NAME}` the written file needs set, and what for (said after the import, and in a comment). */
export interface NeededVariable {
  name: string;
  purpose: string;
}

/** The entry and what goes with it. */
export interface AccountEntryImport {
  key: string;
  entry: ImportedAccountEntry;
  /** Files to write beside the job file (brands' logos): the path relative to it (forward slashes), the bytes. */
  files: Array<{ file: string; bytes: Buffer }>;
  /** The job file's own templates (a kind of `scope: 'job'`), each with the documents to download beside it. */
  templates: Array<{ entry: RawTemplate; templateId: string; documents: readonly ImportedDocument[] }>;
  variables: NeededVariable[];
  /** What the account holds that the entry leaves out, and why (each one line, for people). */
  leftOut: string[];
  /** Comments to attach to fields of the entry: path inside the entry → text. */
  comments: Array<{ path: Array<string | number>; comment: string }>;
}

/** A name as an environment variable's tail: upper-case letters, digits and `_`. */
export function variableTail(name: string): string {
  return slugOf(name).toUpperCase().replace(/-/g, '_').slice(0, 60);
}

/**
 * The `accounts:` entry of the account read: its id and the user signrun
 * logs in as; the initial user and plan that `state: present` asks for (the
 * password only ever `${env.*}`); then each kind of the catalogue that
 * imports, in its order (resources/resource-kinds.ts: permission profiles
 * and groups not DocuSign's own, users, brands with their logos as files,
 * Connect configurations with their listeners' passwords as `${env.*}`).
 * Where the account has two of a name (a race), the one the plan finds is
 * written and the other is said in `leftOut`.
 */
export function accountEntryOf(
  reading: AccountReading,
  options: { key: string; job: string; passwordVariable: string; passwordPurpose: string },
  kinds: readonly AccountResourceKind[] = resourceKinds,
): AccountEntryImport {
  const imported: AccountEntryImport = {
    key: options.key,
    entry: { key: options.key, accountName: reading.accountName, accountId: reading.accountId },
    files: [],
    templates: [],
    variables: [],
    leftOut: [],
    comments: [],
  };
  writeLogin(imported, reading, options);
  writeKinds(imported, reading.found, options.job, kinds, 'account');
  return imported;
}

/**
 * The entry of an organisation's account the credentials are no user of:
 * `entry`'s own fields (those its organisation gives), then what `kinds`
 * (the ones kept through the organisation: its groups) write of what the
 * organisation lists in `found`.
 */
export function organizationEntryOf(
  entry: ImportedAccountEntry,
  found: FoundPeople,
  job: string,
  kinds: readonly AccountResourceKind[],
): AccountEntryImport {
  const imported: AccountEntryImport = {
    key: entry.key,
    entry,
    files: [],
    templates: [],
    variables: [],
    leftOut: [],
    comments: [],
  };
  writeKinds(imported, found, job, kinds, 'account');
  return imported;
}

/**
 * What each kind of the catalogue of `scope: 'job'` writes (the account's
 * templates, into the job file's own `templates:`): after the entry's own
 * fields and its organisation's, as the import has always said them.
 */
export function addJobEntries(
  imported: AccountEntryImport,
  found: FoundPeople,
  job: string,
  kinds: readonly AccountResourceKind[] = resourceKinds,
): void {
  writeKinds(imported, found, job, kinds, 'job');
}

/** Each kind of `scope` that imports, in the catalogue's order: its entries in its field (when it has some). */
function writeKinds(
  imported: AccountEntryImport,
  found: FoundPeople,
  job: string,
  kinds: readonly AccountResourceKind[],
  scope: 'account' | 'job',
): void {
  const ctx = entryContext(imported, job);
  for (const kind of kinds) {
    if (!kind.import || (kind.import.scope ?? 'account') !== scope) continue;
    const entries = kind.import.entries(found, ctx);
    if (entries.length > 0) Object.assign(imported.entry, { [kind.import.field]: entries });
  }
}

/**
 * What the entry says of the login and the account itself: the user signrun
 * logs in as (the one logged in now), the initial user with a password
 * variable, the plan (a variable when the service did not say it).
 */
function writeLogin(
  imported: AccountEntryImport,
  reading: AccountReading,
  options: { passwordVariable: string; passwordPurpose: string },
): void {
  const { entry, variables, leftOut, comments } = imported;
  const me =
    reading.found.users.find((u) => reading.userId !== undefined && u.userId === reading.userId) ??
    (reading.email ? findUser(reading.found, reading.email) : undefined);
  const userId = reading.userId ?? me?.userId;
  if (userId) entry.userId = userId;
  else leftOut.push('userId: the login did not say which user it is; plan cannot read the account without it');
  const email = me?.email ?? reading.email;
  if (email) {
    entry.initialUser = {
      email,
      ...(me?.userName ? { userName: me.userName } : {}),
      password: `\${env.${options.passwordVariable}}`,
    };
    variables.push({ name: options.passwordVariable, purpose: options.passwordPurpose });
    comments.push({
      path: ['initialUser', 'password'],
      comment: ` set ${options.passwordVariable} (see the top of the file)`,
    });
  }
  entry.planInformation = { planId: reading.planId ?? '${env.PLAN_ID}' };
  if (!reading.planId)
    variables.push({ name: 'PLAN_ID', purpose: "the account's plan id (the service did not say it)" });
}

/** What the kinds write through: the import's left-out lines, variables (each name once), comments, files and templates. */
function entryContext(imported: AccountEntryImport, job: string): ImportEntryContext {
  const names = new Set(imported.variables.map((v) => v.name));
  return {
    job,
    jobTemplate: (entry, templateId, documents) => imported.templates.push({ entry, templateId, documents }),
    leaveOut: (line) => imported.leftOut.push(line),
    variable: (prefix, of, purpose, at) => {
      let name = `${prefix}_${variableTail(of)}`;
      for (let n = 2; names.has(name); n++) name = `${prefix}_${variableTail(of)}_${n}`;
      names.add(name);
      imported.variables.push({ name, purpose });
      imported.comments.push({ path: at, comment: ` set ${name} (see the top of the file)` });
      return `\${env.${name}}`;
    },
    file: (file, bytes) => imported.files.push({ file, bytes }),
  };
}
