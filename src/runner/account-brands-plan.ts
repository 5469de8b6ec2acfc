import { createHash } from 'node:crypto';
import type { ResolvedAccount, ResolvedBrand, ResolvedConnect } from '../jobs/model.js';
import {
  brandLogoTypes,
  type AccountBrands,
  type BrandWire,
  type ConnectConfigurationWire,
} from '../client/account-brands.js';
import type { AccountItemProgress } from '../state/journal-progress.js';
import type { FoundBrand, FoundPeople } from './plan-types.js';

// What differs between an account entry's brands and Connect configurations
// and the account's (account-contents-plan.ts decides with it; the pipeline
// writes with the same finders). Pure, but for `readBrandsAndConnect`.

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b);
const shown = (value: unknown) => (value === undefined ? '(not set)' : JSON.stringify(value));
const digestOf = (value: unknown) => createHash('sha256').update(JSON.stringify(value)).digest('hex').slice(0, 32);
/** DocuSign answers flags as booleans or as the strings "true"/"false". */
const flagOf = (value: boolean | string | undefined) =>
  value === undefined ? undefined : String(value).toLowerCase() === 'true';

/**
 * The brand of a name that counts. DocuSign does not refuse a second brand
 * of a name and its listing shows no creation time, so every run keeps the
 * one with the smallest brandId: two racing runs that each made one agree on
 * which stays (the pipeline deletes the other).
 */
export function findBrand<T extends BrandWire>(brands: readonly T[] | undefined, name: string): T | undefined {
  return (brands ?? [])
    .filter((b) => same(b.brandName, name) && b.brandId)
    .sort((a, b) => lower(a.brandId).localeCompare(lower(b.brandId)))[0];
}

/** The Connect configuration of a name that counts: the earliest (DocuSign's connectIds grow). */
export function findConnect(
  configs: readonly ConnectConfigurationWire[] | undefined,
  name: string,
): ConnectConfigurationWire | undefined {
  return (configs ?? [])
    .filter((c) => same(c.name, name) && c.connectId)
    .sort(
      (a, b) => Number(a.connectId) - Number(b.connectId) || String(a.connectId).localeCompare(String(b.connectId)),
    )[0];
}

/** Colours and email texts compared as sets: the order DocuSign answers them in says nothing. */
const colorsKey = (colors: ReadonlyArray<{ name?: string; value?: string }> | undefined) =>
  (colors ?? []).map((c) => `${c.name ?? ''}=${lower(c.value)}`).sort();
const emailKey = (items: ReadonlyArray<Record<string, string>> | undefined) =>
  (items ?? []).map((i) => JSON.stringify(Object.entries(i).sort(([a], [b]) => a.localeCompare(b)))).sort();

/** Digest of a brand entry: its fields and its logos' sha256 (the journal keeps it, never the images). */
export const brandDigest = (b: ResolvedBrand) =>
  digestOf({
    n: lower(b.brandName),
    c: b.brandCompany,
    k: b.colors ? colorsKey(b.colors) : null,
    e: b.emailContent ? emailKey(b.emailContent) : null,
    d: [b.isSendingDefault ?? null, b.isSigningDefault ?? null],
    l: brandLogoTypes.map((t) => b.logos[t]?.sha256 ?? null),
    s: b.state,
  });

/** What differs, account → file, for a brand that is there. */
export function brandDifferences(brand: ResolvedBrand, there: FoundBrand): string[] {
  const differences: string[] = [];
  if (brand.brandCompany !== undefined && there.brandCompany !== brand.brandCompany)
    differences.push(`brandCompany: ${shown(there.brandCompany)} → ${JSON.stringify(brand.brandCompany)}`);
  if (brand.colors && JSON.stringify(colorsKey(there.colors)) !== JSON.stringify(colorsKey(brand.colors)))
    differences.push(
      `colors: ${colorsKey(there.colors).join(', ') || '(none)'} → ${colorsKey(brand.colors).join(', ')}`,
    );
  if (
    brand.emailContent &&
    JSON.stringify(emailKey(there.emailContent)) !== JSON.stringify(emailKey(brand.emailContent))
  )
    differences.push(
      `emailContent: ${(there.emailContent ?? []).map((e) => e['emailContentType']).join(', ') || '(none)'} → ${brand.emailContent.map((e) => e['emailContentType']).join(', ')} (texts differ)`,
    );
  for (const flag of ['isSendingDefault', 'isSigningDefault'] as const)
    if (brand[flag] !== undefined && flagOf(there[flag]) !== brand[flag])
      differences.push(`${flag}: ${shown(flagOf(there[flag]))} → ${String(brand[flag])}`);
  for (const type of brandLogoTypes) {
    const logo = brand.logos[type];
    const now = there.logoDigests[type];
    if (logo && now !== logo.sha256)
      differences.push(
        `logos.${type}: ${now ? `sha256 ${now.slice(0, 12)}…` : '(none)'} → sha256 ${logo.sha256.slice(0, 12)}… (${logo.file})`,
      );
  }
  return differences;
}

/** A Connect field compared as DocuSign keeps it: flags lower case, lists as sets, eventData by content. */
function connectValue(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value.map((v) => lower(String(v))).sort());
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => lower(String(x))).sort() : lower(String(v))] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    return JSON.stringify(entries);
  }
  if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number') return '';
  const text = String(value);
  return /^(true|false)$/i.test(text) ? text.toLowerCase() : text;
}

/**
 * Digest of a Connect entry. The password enters only as its own sha256:
 * the journal tells a changed password from an unchanged one (the account
 * never answers it) without keeping anything of it.
 */
export const connectDigest = (c: ResolvedConnect) =>
  digestOf({
    n: lower(c.name),
    f: Object.entries(c.fields)
      .map(([k, v]) => [k, connectValue(v)])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
    p: c.password ? createHash('sha256').update(c.password.reveal()).digest('hex') : null,
    s: c.state,
  });

/**
 * What differs, account → file, for a Connect configuration that is there.
 * The password is never answered by the service: it counts as changed when
 * the file's digest differs from the one signrun journalled while every
 * field the account shows is the file's (the password is then what changed).
 */
export function connectDifferences(
  config: ResolvedConnect,
  there: ConnectConfigurationWire,
  written: AccountItemProgress | undefined,
): string[] {
  const differences: string[] = [];
  for (const [field, value] of Object.entries(config.fields)) {
    if (connectValue(there[field]) === connectValue(value)) continue;
    const was = there[field] === undefined ? '(not set)' : JSON.stringify(there[field]);
    differences.push(`${field}: ${was} → ${JSON.stringify(value)}`);
  }
  if (
    differences.length === 0 &&
    config.password &&
    written?.present === true &&
    written.digest !== connectDigest(config)
  )
    differences.push('password: changed in the environment since signrun wrote it (the account never shows it)');
  return differences;
}

/** Whether the entry keeps brands or Connect configurations (then the account's are read). */
export function keepsBrandsOrConnect(account: ResolvedAccount): { brands: boolean; connect: boolean } {
  return { brands: (account.brands?.length ?? 0) > 0, connect: (account.connect?.length ?? 0) > 0 };
}

/**
 * Reads the account's brands (one listing, then one read per logo the entry
 * gives of each brand of an entry's name, for its sha256) and Connect
 * configurations (one listing), as far as the entry keeps them. Returns the
 * calls it made.
 */
export async function readBrandsAndConnect(
  account: ResolvedAccount,
  brands: AccountBrands,
  found: FoundPeople,
  tag: string,
): Promise<number> {
  const keeps = keepsBrandsOrConnect(account);
  let calls = 0;
  if (keeps.brands) {
    const listed = await brands.listBrands({ tag });
    calls += 1;
    found.brands = [];
    for (const brand of listed) {
      const entry = (account.brands ?? []).find((b) => same(b.brandName, brand.brandName));
      const logoDigests: FoundBrand['logoDigests'] = {};
      for (const type of brandLogoTypes)
        if (entry?.logos[type] && brand.brandId && brand.logos?.[type]) {
          logoDigests[type] = await brands.logoDigest(brand.brandId, type, { tag });
          calls += 1;
        }
      found.brands.push({ ...brand, logoDigests });
    }
  }
  if (keeps.connect) {
    found.connect = await brands.listConnect({ tag });
    calls += 1;
  }
  return calls;
}
