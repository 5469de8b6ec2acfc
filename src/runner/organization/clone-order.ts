import type { ResolvedAccount } from '../../jobs/model.js';

/**
 * A job's account entries with each clone after its source (`cloneOf` naming
 * another entry's key), the file's order kept otherwise: what a user expects
 * of a file that lists a clone before the account it copies. The run starts
 * its items in this order, so a clone waiting for its source's accountId
 * never holds the last free slot while the source waits for one. Circles are
 * refused at validate (SR_ACCOUNT_CLONE_CYCLE).
 */
export function cloneSourcesFirst(accounts: readonly ResolvedAccount[]): ResolvedAccount[] {
  const byKey = new Map(accounts.map((a) => [a.key, a]));
  const ordered: ResolvedAccount[] = [];
  const placed = new Set<ResolvedAccount>();
  const place = (account: ResolvedAccount, seen: Set<ResolvedAccount>) => {
    if (placed.has(account) || seen.has(account)) return;
    seen.add(account);
    const from = account.organization?.cloneOf;
    const source = from && 'key' in from ? byKey.get(from.key) : undefined;
    if (source) place(source, seen);
    placed.add(account);
    ordered.push(account);
  };
  for (const account of accounts) place(account, new Set());
  return ordered;
}
