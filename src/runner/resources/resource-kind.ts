import type { ResolvedAccount } from '../../jobs/model.js';
import type { AccountClient } from '../../client/esignature-client.js';
import type { AccountPeople } from '../../client/account-people.js';
import type { AdminClient } from '../../client/admin/admin-client.js';
import type { SignrunError } from '../../errors/signrun-error.js';
import type { AccountItemProgress } from '../../state/journal-progress.js';
import type { RawAccount, RawTemplate } from '../../jobs/raw-job.js';
import type { ImportedDocument } from '../../jobs/template-job-file.js';
import type { AccountEntryKind } from '../../jobs/account-entries/account-entry-kind.js';
import type { AccountItemPlan, FoundPeople } from '../plan-types.js';
import type { AccountItemResult } from '../run-results.js';

// What a kind of thing an account holds is to signrun, the way a Terraform
// provider's `resource.Resource` is to Terraform's core: its identity, how it
// is read from the service, how the file's and the account's are compared,
// how it is created, updated and deleted, and its words for people. The
// planner (account-contents-plan.ts), the pipeline (account-contents-pipeline.ts),
// `signrun plan`, the console and the report schema know no kind by name:
// they walk the catalogue (resource-kinds.ts).

/**
 * What holds a kind's things, the scope its plans and runs walk it in (as a
 * Terraform resource lives in a provider's configuration, one level down):
 * `job` — the job file itself, kept in the account signrun runs against
 * (the top-level `templates:`: job-resource-kind.ts, job-resource-kinds.ts);
 * `organization` — an organisation, or the configured account's
 * distributor, which holds the accounts themselves (accounts.ts,
 * organization-resource-kind.ts); `account` — an account entry's account
 * (everything in the catalogue resource-kinds.ts, this file's
 * `AccountResourceKind`).
 */
export type ResourceParent = 'job' | 'organization' | 'account';

/** What every resource kind says, whatever holds it. */
export interface ResourceKindBase {
  /** Its name in signrun's own records, never changed (the journal, report.json, plan --format json). */
  readonly kind: string;
  readonly words: ResourceWords;
  /** What holds it (absent: `account`, as every kind of the account catalogue). */
  readonly parent?: ResourceParent;
  /**
   * The kinds (their `kind` names) this one is planned, converged and
   * imported after, among its parent's kinds, as Terraform's `depends_on`:
   * what it names (a group its profile), or the place plans, journals and
   * `import account` have always given it. `npm run docs:kinds` orders each
   * parent's catalogue by it (kind-files.ts): an unknown name or a cycle
   * stops it with an error naming the kinds.
   */
  readonly after?: readonly string[];
}

/** A kind's words for people. */
export interface ResourceWords {
  /** One of it, as `plan` prints it before its name: `permission profile`. */
  one: string;
  /** The kind in the console's summary line (`brands`); kinds summarised together give the same words. */
  summary: string;
  /** The summary names it even when the entry keeps none (the people, which today's line always begins with). */
  alwaysSummarised?: true;
}

/**
 * An account of an organisation, as a kind kept through its Admin API
 * (`through: 'organization'`: settings) reads and writes it.
 */
export interface OrganizationContext {
  admin: AdminClient;
  accountId: string;
  /** Waits between two looks at the organisation's asynchronous work (the run's clock). */
  delay: (ms: number, signal?: AbortSignal) => Promise<void>;
}

/** What reading an account's holdings needs: logged in as the account's own user. */
export interface ReadContext {
  people: AccountPeople;
  /** The request log's tag: the account's `<job>/<key>`. */
  tag: string;
  /** The account's organisation (an entry with organizationId, its account known). */
  organization?: OrganizationContext;
}

/** What a kind that reads itself (templates: its own listing and reads) plans with. */
export interface PlanContext {
  /** Logged in as the account's user; absent: not read (offline, or the account cannot be read yet). */
  subsidiary?: AccountClient;
  /** What this state's journal says of the account's items (digests signrun wrote). */
  journal?: ReadonlyMap<string, AccountItemProgress>;
  tag: string;
}

/** What the account's pipeline lends each kind's `converge`: the account, what was read, and the bookkeeping. */
export interface ConvergeContext {
  /** Logged in as a user of the account who may manage it. */
  people: AccountPeople;
  tag: string;
  /** What the plan's listings found; a kind that creates lists again and keeps it current for the kinds after it. */
  found: FoundPeople;
  /** Records an item's outcome and journals it (the item's id, the file's digest). */
  done: (plan: AccountItemPlan, outcome: AccountItemResult['outcome'], id: string | undefined) => Promise<void>;
  /** Records an item's failure (a kind never throws: each item has its outcome). */
  failed: (plan: AccountItemPlan, error: unknown) => void;
  /** Whether an item has its outcome already (a user found missing after a failure of its own). */
  hasOutcome: (plan: AccountItemPlan) => boolean;
  /** The error of something the service refused or did not do. */
  refused: (what: string, message: string | undefined) => SignrunError;
  /** The account's organisation (an entry with organizationId). */
  organization?: OrganizationContext;
}

/** What `import account` lends a kind's `import.read`: logged in as the account's user, reading all it holds. */
export interface ImportReadContext {
  people: AccountPeople;
  tag: string;
  /** Stops the import between two calls when it was asked to stop (SR_INTERRUPTED); `where` says when. */
  stopIfInterrupted: (where: string) => void;
}

/** What `import account` lends a kind's `import.entries`: where it says what the written entry needs or leaves out. */
export interface ImportEntryContext {
  /** Says a thing the account holds that the entry leaves out, and why (one line, for people). */
  leaveOut: (line: string) => void;
  /**
   * Asks for a `${env.NAME}` the written file needs (a secret DocuSign never
   * answers): NAME is `prefix` and `of` in capitals (`SIGNRUN_CONNECT_PASSWORD_ORDERS`;
   * one already asked for gets `_2`, `_3` …), said after the import with its
   * `purpose` and in a comment on the field at `at` (its path inside the
   * account entry). Returns the `${env.NAME}` to write.
   */
  variable: (prefix: string, of: string, purpose: string, at: Array<string | number>) => string;
  /** Writes a file beside the job file (`file`: relative to it, forward slashes), as the import writes its others. */
  file: (file: string, bytes: Buffer) => void;
  /** The job file's job: the one the account's things carry (`carriedJobs`), else the account's name as a slug. */
  readonly job: string;
  /**
   * Adds a template to the job file's own `templates:` (a kind of `scope:
   * 'job'`), with its documents, each downloaded from the account's template
   * `templateId` to its `file` beside the job file.
   */
  jobTemplate: (entry: RawTemplate, templateId: string, documents: readonly ImportedDocument[]) => void;
}

/**
 * How `signrun import account` writes a kind into an account entry: it reads
 * everything the account holds of the kind (not what an entry names), then
 * writes the entries `signrun plan` finds equal to the account (each field
 * one the kind's `decide` compares, as the account answers it).
 */
export interface ResourceImport {
  /** The account entry's field the kind's entries are written in (`permissionProfiles`, `connect`, …). */
  readonly field: keyof RawAccount;
  /**
   * `job`: what it writes is the job file's own (top-level: templates, with
   * their documents), the entry listing their keys; written after the
   * entry's own fields and its organisation's. Absent: inside the entry.
   */
  readonly scope?: 'job';
  /** The jobs the things read are kept as code by (their identity): the file takes the job when there is one. */
  carriedJobs?(found: FoundPeople): string[];
  /** Reads all the account holds of the kind into `found`. */
  read(found: FoundPeople, ctx: ImportReadContext): Promise<void>;
  /** The entries to write, from `found` (the earlier kinds' too: a group names its profile). Pure. */
  entries(found: FoundPeople, ctx: ImportEntryContext): unknown[];
}

/** Whether `kind` keeps `account`'s entries through its organisation (not as the account's own user). */
export function keptThroughOrganization(kind: AccountResourceKind | undefined, account: ResolvedAccount): boolean {
  const through = kind?.through;
  return (typeof through === 'function' ? through(account) : through) === 'organization';
}

/**
 * One kind of thing an account holds. A kind either is read with the
 * account's other holdings (`read`, then `decide`, pure) or reads itself as
 * it plans (`plan`: templates, with their own listing and reads).
 */
export interface AccountResourceKind extends ResourceKindBase {
  /** An account entry's account holds it. */
  readonly parent?: 'account';
  /**
   * Its name in signrun's own records, never changed: the journal's ids
   * (`<job>/<key>#<kind>:<name>`), report.json's `kind`, plan --format json.
   */
  readonly kind: string;
  readonly words: ResourceWords;
  /**
   * The job file's side: the account entry's field it is kept in, its JSON
   * Schema, how an entry is resolved and checked (src/jobs/account-entries/).
   * `npm run docs:kinds` lists the catalogue's into src/jobs (which cannot
   * import the runner) and `npm run docs:jobs` writes their schema. Absent:
   * the job file keeps it elsewhere (an organisation's, templates).
   */
  readonly entry?: AccountEntryKind;
  /**
   * `organization`: kept through the account's organisation (DocuSign's
   * Admin API), not as the account's own user — read and converged without
   * logging in to the account, so a new account's are kept at once.
   */
  readonly through?: 'organization' | ((account: ResolvedAccount) => 'organization' | undefined);
  /** How many entries of this kind an account entry keeps (0: the kind takes no part). */
  count(account: ResolvedAccount): number;
  /** Reads the account's holdings of this kind into `found` (as far as the entry needs them). */
  read?(account: ResolvedAccount, found: FoundPeople, ctx: ReadContext): Promise<void>;
  /** The calls `read` made for what it found. */
  readCalls?(account: ResolvedAccount, found: FoundPeople): number;
  /** The one decision for each entry of this kind, from what was read and the journal. Pure. */
  decide?(
    account: ResolvedAccount,
    found: FoundPeople,
    journal: ReadonlyMap<string, AccountItemProgress> | undefined,
  ): AccountItemPlan[];
  /** The decisions of a kind that reads itself; every present entry `create` when the account is not read. */
  plan?(account: ResolvedAccount, ctx: PlanContext): Promise<{ items: AccountItemPlan[]; reads: number }>;
  /** The calls a run makes for this kind's decisions (writes, and the listings that confirm creations). */
  calls(plans: readonly AccountItemPlan[], account: ResolvedAccount): number;
  /**
   * Executes this kind's decisions (create, update, delete), exactly once:
   * the account is the record, a creation is confirmed by listing again.
   * Never throws.
   */
  converge(account: ResolvedAccount, plans: readonly AccountItemPlan[], ctx: ConvergeContext): Promise<void>;
  /** How `import account` writes it (absent: the import leaves it out, or writes it its own way, as templates). */
  readonly import?: ResourceImport;
}
