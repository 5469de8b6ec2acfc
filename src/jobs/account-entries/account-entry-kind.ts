import type { ErrorCode } from '../../errors/catalogue.js';
import type { JobContext } from '../job-context.js';
import type { ResolvedAccount, SourcePosition } from '../model.js';
import type { RawAccount } from '../raw-job.js';

// The job file's side of a kind of thing an account holds: the account
// entry's field it is kept in, that field's JSON Schema, and how the raw
// entries become the resolved ones, checked offline at their lines. A kind's
// runner module (src/runner/resources/) names it as its `entry`; the list
// src/jobs walks (account-entry-kinds.ts) is generated from the runner's
// catalogue, so src/jobs knows no kind by name and does not import the runner.

/** What resolving one account entry's field lends its kind. */
export interface AccountEntryContext {
  /** The job file being loaded (its sink, locator, folder). */
  job: JobContext;
  /** The account entry's path in the job file (`['accounts', i]`). */
  base: Array<string | number>;
  /** Substitutes `${env.*}` in a value. */
  sub: (value: string) => string;
  /** Reports a problem at a path inside the account entry (`['users', 0, 'email']`), at its line. */
  say: (code: ErrorCode, message: string, path: Array<string | number>, hint?: string) => void;
  /** Where a path inside the account entry is, for the resolved item's `source`. */
  sourceOf: (path: Array<string | number>) => SourcePosition;
  /** What the kinds before it in the catalogue resolved of this entry (a group names a profile). */
  resolved: Readonly<Partial<ResolvedAccount>>;
}

/** How the entries of a kind are kept unique in one account entry (SR_ACCOUNT_NAME_DUPLICATE). */
export interface EntryUniqueness<Resolved> {
  /** One of it, for people: `permission profile`. */
  what: string;
  /** Its name, compared ignoring case. */
  name(item: Resolved): string;
  /** The field of an entry the duplicate is reported at. */
  field: string;
  /** Why only one is kept, after the message (`: DocuSign keeps one per name, ignoring case`); '' for none. */
  why: string;
}

/** The account entry's field a kind keeps, on the raw and the resolved account alike. */
export type AccountEntryField = keyof RawAccount & keyof ResolvedAccount;

/** The job file's side of one account resource kind. */
export interface AccountEntryKind<Resolved = unknown> {
  /** The account entry's field (`permissionProfiles`, `connect`, …), also the resolved account's. */
  readonly field: AccountEntryField;
  /** The JSON Schema of the field, written into schemas/job.schema.json's account by `npm run docs:jobs`. */
  readonly schema: Readonly<Record<string, unknown>>;
  /** The entry's items of this kind, resolved; problems reported through `ctx.say`. */
  resolve(raw: RawAccount, ctx: AccountEntryContext): Resolved[];
  /** Names unique in the entry (checked after `resolve`, the later ones reported). */
  readonly unique?: EntryUniqueness<Resolved>;
}
