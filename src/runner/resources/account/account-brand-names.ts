import { AccountBrands } from '../../../client/account-brands.js';
import type { AccountClient } from '../../../client/esignature-client.js';
import type { ResolvedAccount, ResolvedEnvelope } from '../../../jobs/model.js';
import { findBrand } from '../kinds/brands.js';
import { describesAccountId } from '../../../jobs/template-homes.js';
import type { PreflightProblem } from '../../templates/template-check.js';

const lower = (s: string | undefined) => (s ?? '').toLowerCase();

/**
 * Whether an account entry describes the account envelopes are sent from
 * (the configured one, logged in to): its `accountId` is that account's.
 */
export function describesSendingAccount(entry: ResolvedAccount, sending: AccountClient): boolean {
  return describesAccountId({ present: entry.state === 'present', accountId: entry.accountId }, sending.accountId);
}

/** The brand names (lower case) that entries for the sending account keep present: a run may create them first. */
export function brandsKeptFor(accounts: Iterable<ResolvedAccount>, sending: AccountClient): Set<string> {
  const names = new Set<string>();
  for (const entry of accounts)
    if (describesSendingAccount(entry, sending))
      for (const brand of entry.brands ?? []) if (brand.state === 'present') names.add(lower(brand.brandName));
  return names;
}

/** An envelope that names a brand (`brand:`) whose brandId is not known yet. */
export function lacksBrand(envelope: ResolvedEnvelope): boolean {
  return envelope.brandName !== undefined && envelope.brandId === undefined;
}

/**
 * Envelopes that name a brand kept as code (`brand: <brandName>`) get its
 * brandId in the account they are sent from — the configured account, the
 * one logged in to: its brands are listed once (GET …/brands) and each name
 * found as the account's pipeline finds a brand (ignoring case; of several,
 * the smallest brandId). A name the account does not have is a problem
 * (SR_BRAND_NOT_IN_ACCOUNT), reported once per name and place, unless it is
 * in `pending` (brands that an entry for this very account keeps: the run
 * converges that entry before any envelope, then looks again). The run
 * refuses to start on a problem, so nothing is sent. Returns the problems
 * and the calls made (0 when no envelope needs a brand).
 */
export async function resolveBrandNames(
  envelopes: Iterable<ResolvedEnvelope>,
  account: AccountClient,
  pending: ReadonlySet<string> = new Set(),
): Promise<{ problems: PreflightProblem[]; calls: number }> {
  const named = [...envelopes].filter(lacksBrand);
  if (named.length === 0) return { problems: [], calls: 0 };
  const brands = await new AccountBrands(account).listBrands({ tag: 'brands' });
  const problems: PreflightProblem[] = [];
  const reported = new Set<string>();
  for (const envelope of named) {
    const name = envelope.brandName!;
    const brand = findBrand(brands, name);
    if (brand?.brandId) {
      envelope.brandId = brand.brandId;
      continue;
    }
    // One problem per name and file/line, not one per forEach row.
    const where = `${lower(name)}@${envelope.source.file}:${envelope.source.line}`;
    if (pending.has(lower(name)) || reported.has(where)) continue;
    reported.add(where);
    problems.push({
      code: 'SR_BRAND_NOT_IN_ACCOUNT',
      message: brandMissingMessage(
        envelope,
        account,
        brands.map((b) => b.brandName ?? ''),
      ),
      source: envelope.source,
    });
  }
  return { problems, calls: 1 };
}

/** Why an envelope's brand is not there, with the brands the account has. */
export function brandMissingMessage(
  envelope: ResolvedEnvelope,
  account: AccountClient,
  names?: readonly string[],
): string {
  const listed = names ? `; its brands are: ${names.map((n) => JSON.stringify(n)).join(', ') || '(none)'}` : '';
  return `envelope ${envelope.key} uses brand ${JSON.stringify(envelope.brandName ?? '')}, which the account it is sent from (${account.accountId}) does not have${listed}`;
}
