import { brandsEntry } from '../../../jobs/account-entries/brands.js';
import type { ResolvedBrand } from '../../../jobs/model.js';
import { AccountBrands, type BrandWire } from '../../../client/account-brands.js';
import { brandLogoTypes, logoContentType, logoExtensions, type BrandLogoType } from '../../../envelope/brand-logo.js';
import type { RawBrand } from '../../../jobs/raw-job.js';
import { slugOf } from '../../../jobs/template-job-file.js';
import { accountSettings } from './account-settings.js';
import { dropDuplicates } from './drop-duplicates.js';
import { users } from './users.js';
import { digestOf, itemDecision, lower, same, settledOutcome, shown, writeCalls } from '../item-decision.js';
import type { AccountResourceKind, ImportEntryContext, ResourceImport } from '../resource-kind.js';

// An account's brands (DocuSign's #/definitions/brand): found by name,
// compared field by field and their logos by sha256 (the journal keeps
// digests, never the images). Converged after the users: nothing of the
// people depends on them.

declare module '../../plan-types.js' {
  interface FoundPeople {
    /** The account's brands, read only when the entry keeps brands; each with the sha256 of the logos the entry gives. */
    brands?: FoundBrand[];
  }
}

/**
 * A brand as the account lists it, with the sha256 (hex) of each of its logos
 * that the entry compares; `import account` reads the logos' bytes instead.
 */
export type FoundBrand = BrandWire & {
  logoDigests: Partial<Record<BrandLogoType, string>>;
  logoBytes?: Partial<Record<BrandLogoType, Buffer>>;
};

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

/** The brand's fields as DocuSign's brand (#/definitions/brand); what the entry leaves out is not sent. */
function brandBody(brand: ResolvedBrand, name: string): BrandWire {
  return {
    brandName: name,
    ...(brand.brandCompany !== undefined ? { brandCompany: brand.brandCompany } : {}),
    ...(brand.colors ? { colors: brand.colors } : {}),
    ...(brand.emailContent ? { emailContent: brand.emailContent } : {}),
    ...(brand.isSendingDefault !== undefined ? { isSendingDefault: brand.isSendingDefault } : {}),
    ...(brand.isSigningDefault !== undefined ? { isSigningDefault: brand.isSigningDefault } : {}),
  };
}

const flagPattern = /^(true|false)$/i;
const colourPattern = /^#[0-9a-fA-F]{6}$/;
const emailContentFields = new Set(['emailContentType', 'content', 'emailToLink', 'linkText']);

/**
 * A brand as a job file holds it: its fields (what a file has no place for
 * is said and left as it is) and its logos, written as files under
 * `brands/<folder>/` (an image's bytes only: another is left as it is).
 */
function writtenBrand(brand: FoundBrand, name: string, folder: string, ctx: ImportEntryContext): RawBrand {
  const written: RawBrand = { brandName: name };
  if (brand.brandCompany) written.brandCompany = brand.brandCompany;
  if (brand.colors && brand.colors.length > 0) {
    const colors = brand.colors.filter(
      (c): c is { name: string; value: string } => !!c.name && colourPattern.test(c.value ?? ''),
    );
    if (colors.length === brand.colors.length) written.colors = colors.map((c) => ({ name: c.name, value: c.value }));
    else ctx.leaveOut(`brand "${name}": colors (one is not a #rrggbb colour a job file takes; left as they are)`);
  }
  const logos: NonNullable<RawBrand['logos']> = {};
  for (const type of brandLogoTypes) {
    const bytes = brand.logoBytes?.[type];
    if (!brand.logos?.[type] || !bytes) continue;
    const image = logoContentType(bytes);
    if (!image) {
      ctx.leaveOut(`brand "${name}": its ${type} logo is not a PNG, JPEG or GIF image (left as it is)`);
      continue;
    }
    logos[type] = `brands/${folder}/logo-${type}.${logoExtensions[image]}`;
    ctx.file(logos[type], bytes);
  }
  if (Object.keys(logos).length > 0) written.logos = logos;
  if (brand.emailContent && brand.emailContent.length > 0) {
    const fit = brand.emailContent.every(
      (e) =>
        typeof e['emailContentType'] === 'string' &&
        typeof e['content'] === 'string' &&
        Object.keys(e).every((k) => emailContentFields.has(k)),
    );
    if (fit)
      written.emailContent = brand.emailContent.map((e) => ({
        emailContentType: e['emailContentType']!,
        content: e['content']!,
        ...(e['emailToLink'] !== undefined ? { emailToLink: e['emailToLink'] } : {}),
        ...(e['linkText'] !== undefined ? { linkText: e['linkText'] } : {}),
      }));
    else ctx.leaveOut(`brand "${name}": emailContent (a field a job file has no place for; left as it is)`);
  }
  for (const flag of ['isSendingDefault', 'isSigningDefault'] as const) {
    const value = brand[flag];
    if (value !== undefined && flagPattern.test(String(value))) written[flag] = String(value).toLowerCase() === 'true';
  }
  return written;
}

/** `import account`: every brand with its logos (read whole: DocuSign's editor takes small images) as files. */
const brandsImport: ResourceImport = {
  field: 'brands',
  async read(found, { people, tag, stopIfInterrupted }) {
    const client = new AccountBrands(people.account);
    found.brands = [];
    for (const brand of await client.listBrands({ tag })) {
      const logoBytes: FoundBrand['logoBytes'] = {};
      for (const type of brandLogoTypes) {
        if (!brand.brandId || !brand.logos?.[type]) continue;
        stopIfInterrupted('while reading brand logos');
        logoBytes[type] = await client.downloadLogo(brand.brandId, type, { tag });
      }
      found.brands.push({ ...brand, logoDigests: {}, logoBytes });
    }
  },
  entries(found, ctx) {
    const written: RawBrand[] = [];
    // Folder names from the brand's name, made unique (ignoring case, as file systems may).
    const folders = new Set<string>();
    for (const brand of found.brands ?? []) {
      const name = brand.brandName;
      if (!name || !brand.brandId) continue;
      if (findBrand(found.brands, name) !== brand) {
        ctx.leaveOut(`brand "${name}" (${brand.brandId}): a second one of that name`);
        continue;
      }
      let folder = slugOf(name).slice(0, 60).replace(/-+$/, '') || 'brand';
      for (let n = 2; folders.has(folder); n++) folder = `${slugOf(name).slice(0, 56)}-${n}`;
      folders.add(folder);
      written.push(writtenBrand(brand, name, folder, ctx));
    }
    return written;
  },
};

export const brands = {
  kind: 'brand' as const,
  // After the people (nothing of them depends on brands) and the settings: the order plans, journals and imports keep.
  after: [users.kind, accountSettings.kind],
  entry: brandsEntry,
  words: { one: 'brand', summary: 'brands' },
  count: (account) => account.brands?.length ?? 0,

  /** One listing, then one read per logo the entry gives of each brand of an entry's name (for its sha256). */
  async read(account, found, { people, tag }) {
    if ((account.brands?.length ?? 0) === 0) return;
    const client = new AccountBrands(people.account);
    const listed = await client.listBrands({ tag });
    found.brands = [];
    for (const brand of listed) {
      const entry = (account.brands ?? []).find((b) => same(b.brandName, brand.brandName));
      const logoDigests: FoundBrand['logoDigests'] = {};
      for (const type of brandLogoTypes)
        if (entry?.logos[type] && brand.brandId && brand.logos?.[type])
          logoDigests[type] = await client.logoDigest(brand.brandId, type, { tag });
      found.brands.push({ ...brand, logoDigests });
    }
  },
  readCalls: (_account, found) =>
    found.brands ? 1 + found.brands.reduce((n, b) => n + Object.keys(b.logoDigests).length, 0) : 0,

  decide(account, found, journal) {
    return (account.brands ?? []).map((brand) => {
      const there = findBrand(found.brands, brand.brandName);
      return itemDecision(
        account,
        {
          kind: 'brand',
          name: brand.brandName,
          digest: brandDigest(brand),
          id: there?.brandId,
          differences: there ? brandDifferences(brand, there) : [],
          state: brand.state,
        },
        journal,
      );
    });
  },

  // An update: the brand, and each logo that differs.
  calls: (plans) => writeCalls(plans, { callPerDifference: true }),

  /**
   * One create per brand, then one listing: the brand of a name with the
   * smallest brandId stays (DocuSign does not refuse a second one and shows
   * no creation time; every racing run picks the same), the others are
   * deleted; its logos are put on the brand that stays, once it is the only one.
   */
  async converge(account, plans, ctx) {
    const opts = { tag: ctx.tag };
    const client = new AccountBrands(ctx.people.account);
    const brandOf = (name: string) => (account.brands ?? []).find((b) => same(b.brandName, name))!;
    const putLogos = async (brandId: string, brand: ResolvedBrand, onlyDiffering: Partial<Record<string, string>>) => {
      for (const type of brandLogoTypes) {
        const logo = brand.logos[type];
        if (logo && onlyDiffering[type] !== logo.sha256)
          await client.putLogo(brandId, type, { data: logo.bytes, contentType: logo.contentType }, opts);
      }
    };
    const creates = plans.filter((p) => p.action === 'create');
    const createErrors = new Map<string, unknown>();
    for (const plan of creates) {
      const brand = brandOf(plan.name);
      try {
        await client.createBrand(brandBody(brand, brand.brandName), opts);
      } catch (error) {
        // A create whose answer was lost may still have made it: the listing below says.
        createErrors.set(plan.identity, error);
      }
    }
    if (creates.length > 0) {
      const listed = await client.listBrands(opts);
      for (const plan of creates) {
        const winner = findBrand(listed, plan.name);
        if (!winner?.brandId) {
          ctx.failed(
            plan,
            createErrors.get(plan.identity) ?? ctx.refused(`brand "${plan.name}"`, 'not listed after its creation'),
          );
          continue;
        }
        try {
          const losers = listed.filter((b) => same(b.brandName, plan.name) && b !== winner).map((b) => b.brandId!);
          await dropDuplicates(
            losers,
            (id) => client.deleteBrand(id, opts),
            async () => (await client.listBrands(opts)).map((b) => b.brandId ?? ''),
          );
          await putLogos(winner.brandId, brandOf(plan.name), {});
          await ctx.done(plan, 'created', winner.brandId);
        } catch (error) {
          ctx.failed(plan, error);
        }
      }
    }
    for (const plan of plans.filter((p) => p.action !== 'create')) {
      try {
        if (plan.action === 'update') {
          const brand = brandOf(plan.name);
          const there = findBrand(ctx.found.brands, plan.name);
          // The account's name is kept as it is written there (brands are found ignoring case).
          await client.updateBrand(plan.id!, brandBody(brand, there?.brandName ?? brand.brandName), opts);
          await putLogos(plan.id!, brand, there?.logoDigests ?? {});
          await ctx.done(plan, 'updated', plan.id);
        } else if (plan.action === 'delete') {
          await client.deleteBrand(plan.id!, opts);
          await ctx.done(plan, 'deleted', plan.id);
        } else await ctx.done(plan, settledOutcome(plan.action), plan.id);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  },

  import: brandsImport,
} satisfies AccountResourceKind;
