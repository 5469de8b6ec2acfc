import { createHash } from 'node:crypto';
import type { ResolvedAccount } from '../../jobs/model.js';
import type { AccountItemProgress } from '../../state/journal-progress.js';
import { identityOf } from '../identity.js';
import type { AccountItemAction, AccountItemPlan } from '../plan-types.js';

// What every resource kind decides alike: an item's identity, its action
// from whether the account has it and what differs, and whether a difference
// was made outside signrun (the journal's digest is the file's).

export const lower = (s: string | undefined) => (s ?? '').toLowerCase();
/** DocuSign compares names of an account's holdings ignoring case; so does signrun. */
export const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b);
/** A value as a difference shows it. */
export const shown = (value: unknown) => (value === undefined ? '(not set)' : JSON.stringify(value));
/** The digest of a declaration, as the journal keeps it (32 hex digits of sha256). */
export const digestOf = (value: unknown) =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);

/** The earliest of several that a race made (DocuSign's ids grow; a user's creation time). */
export function earliest<T>(items: T[], order: (item: T) => string): T | undefined {
  return [...items].sort((a, b) => {
    const [x, y] = [order(a), order(b)];
    const [nx, ny] = [Number(x), Number(y)];
    return Number.isFinite(nx) && Number.isFinite(ny) ? nx - ny : x.localeCompare(y);
  })[0];
}

/** The journal's id of an item of an account: `<job>/<key>#user:ann@example.com`. */
export function itemIdentity(account: ResolvedAccount, kind: string, name: string): string {
  return `${identityOf(account)}#${kind}:${lower(name)}`;
}

/** One entry of a kind as the account has it (`id`) or not, and what differs. */
export interface ItemFacts {
  kind: string;
  name: string;
  digest: string;
  /** Its id in the account, when the account has it. */
  id: string | undefined;
  /** What differs, account → file (only read when the account has it). */
  differences: string[] | undefined;
  state?: 'present' | 'absent';
}

/**
 * The one decision for an entry: absent → delete or already absent; missing
 * → create; else update when something differs. `outside`: an update while
 * the journal's digest is the file's — someone changed the account since
 * signrun wrote it.
 */
export function itemDecision(
  account: ResolvedAccount,
  facts: ItemFacts,
  journal: ReadonlyMap<string, AccountItemProgress> | undefined,
): AccountItemPlan {
  const { kind, name, digest, id, differences } = facts;
  const identity = itemIdentity(account, kind, name);
  let action: AccountItemAction;
  if ((facts.state ?? 'present') === 'absent') action = id ? 'delete' : 'already-absent';
  else if (!id) action = 'create';
  else action = differences && differences.length > 0 ? 'update' : 'up-to-date';
  const written = journal?.get(identity);
  const outside = action === 'update' && written?.present === true && written.digest === digest;
  return {
    kind,
    name,
    identity,
    action,
    outside,
    differences: action === 'update' ? (differences ?? []) : [],
    ...(id ? { id } : {}),
    digest,
  };
}

/**
 * The calls a run makes for one kind's decisions: each write one call (a
 * kind created in one batch: one call for all), an update one call or one
 * per difference, and one listing that confirms the kind's creations.
 */
export function writeCalls(
  plans: readonly AccountItemPlan[],
  how: { batchedCreates?: boolean; callPerDifference?: boolean } = {},
): number {
  let calls = 0;
  const creates = plans.filter((p) => p.action === 'create').length;
  if (creates > 0) calls += (how.batchedCreates ? 1 : creates) + 1;
  for (const p of plans)
    if (p.action === 'update') calls += how.callPerDifference ? Math.max(1, p.differences.length) : 1;
    else if (p.action === 'delete') calls += 1;
  return calls;
}

/** The outcome a decision with nothing to write comes to. */
export function settledOutcome(action: AccountItemAction): 'up-to-date' | 'deleted' | 'already-absent' {
  return action === 'up-to-date' ? 'up-to-date' : action === 'delete' ? 'deleted' : 'already-absent';
}
