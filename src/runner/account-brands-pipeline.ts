import type { ResolvedAccount, ResolvedBrand, ResolvedConnect } from '../jobs/model.js';
import { brandLogoTypes, type AccountBrands, type BrandWire } from '../client/account-brands.js';
import type { SignrunError } from '../errors/signrun-error.js';
import { findBrand, findConnect } from './account-brands-plan.js';
import type { AccountItemPlan, FoundPeople } from './plan-types.js';
import type { AccountItemResult } from './run-results.js';

/** What the people's pipeline (account-contents-pipeline.ts) lends this one: its client and its bookkeeping. */
export interface BrandsContext {
  brands: AccountBrands;
  tag: string;
  /** Records an item's outcome (and journals it, with the file's digest). */
  done: (plan: AccountItemPlan, outcome: AccountItemResult['outcome'], id: string | undefined) => Promise<void>;
  failed: (plan: AccountItemPlan, error: unknown) => void;
  refused: (what: string, message: string | undefined) => SignrunError;
}

const lower = (s: string | undefined) => (s ?? '').toLowerCase();
const same = (a: string | undefined, b: string | undefined) => lower(a) === lower(b);

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

/** The configuration as DocuSign's connectCustomConfiguration; the password revealed here, on its way to the wire only. */
function connectBody(config: ResolvedConnect, name: string): Record<string, unknown> {
  return {
    ...config.fields,
    name,
    ...(config.password ? { password: config.password.reveal() } : {}),
  };
}

/**
 * Deletes the duplicates a race made. A racing run that made one of them
 * deletes the same ones at the same time, so a delete may find its item
 * already gone (DocuSign answers an error): the listing then says whether it
 * is gone, and only one still listed is a failure.
 */
async function dropDuplicates(
  ids: readonly string[],
  remove: (id: string) => Promise<void>,
  listIds: () => Promise<string[]>,
): Promise<void> {
  let failure: Error | undefined;
  for (const id of ids)
    try {
      await remove(id);
    } catch (error) {
      failure ??= error instanceof Error ? error : new Error(String(error));
    }
  if (failure === undefined) return;
  const left = await listIds();
  if (ids.some((id) => left.includes(id))) throw failure;
}

/**
 * Executes the plan of an account's brands, then its Connect configurations
 * (after users: nothing of the people depends on them). Exactly once as the
 * people are: after creating, the run lists again and keeps the brand of a
 * name with the smallest brandId (DocuSign does not refuse a second one and
 * shows no creation time; every racing run picks the same) and the earliest
 * Connect configuration of a name, deleting the others; a brand's logos are
 * put on the brand that stays, once it is the only one. Each write journals
 * the file's digest (logos by sha256, a password by its own sha256).
 */
export async function convergeBrandsAndConnect(
  account: ResolvedAccount,
  plans: readonly AccountItemPlan[],
  found: FoundPeople,
  ctx: BrandsContext,
): Promise<void> {
  const opts = { tag: ctx.tag };
  const brandPlans = plans.filter((p) => p.kind === 'brand');
  const connectPlans = plans.filter((p) => p.kind === 'connect');

  // --- Brands ------------------------------------------------------------------------------------------------------
  const brandOf = (name: string) => (account.brands ?? []).find((b) => same(b.brandName, name))!;
  const putLogos = async (brandId: string, brand: ResolvedBrand, onlyDiffering: Partial<Record<string, string>>) => {
    for (const type of brandLogoTypes) {
      const logo = brand.logos[type];
      if (logo && onlyDiffering[type] !== logo.sha256)
        await ctx.brands.putLogo(brandId, type, { data: logo.bytes, contentType: logo.contentType }, opts);
    }
  };
  const brandCreates = brandPlans.filter((p) => p.action === 'create');
  const createErrors = new Map<string, unknown>();
  for (const plan of brandCreates) {
    const brand = brandOf(plan.name);
    try {
      await ctx.brands.createBrand(brandBody(brand, brand.brandName), opts);
    } catch (error) {
      // A create whose answer was lost may still have made it: the listing below says.
      createErrors.set(plan.identity, error);
    }
  }
  if (brandCreates.length > 0) {
    const listed = await ctx.brands.listBrands(opts);
    for (const plan of brandCreates) {
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
          (id) => ctx.brands.deleteBrand(id, opts),
          async () => (await ctx.brands.listBrands(opts)).map((b) => b.brandId ?? ''),
        );
        await putLogos(winner.brandId, brandOf(plan.name), {});
        await ctx.done(plan, 'created', winner.brandId);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  }
  for (const plan of brandPlans.filter((p) => p.action !== 'create')) {
    try {
      if (plan.action === 'update') {
        const brand = brandOf(plan.name);
        const there = findBrand(found.brands, plan.name);
        // The account's name is kept as it is written there (brands are found ignoring case).
        await ctx.brands.updateBrand(plan.id!, brandBody(brand, there?.brandName ?? brand.brandName), opts);
        await putLogos(plan.id!, brand, there?.logoDigests ?? {});
        await ctx.done(plan, 'updated', plan.id);
      } else if (plan.action === 'delete') {
        await ctx.brands.deleteBrand(plan.id!, opts);
        await ctx.done(plan, 'deleted', plan.id);
      } else await ctx.done(plan, plan.action === 'already-absent' ? 'already-absent' : 'up-to-date', plan.id);
    } catch (error) {
      ctx.failed(plan, error);
    }
  }

  // --- Connect configurations --------------------------------------------------------------------------------------
  const connectOf = (name: string) => (account.connect ?? []).find((c) => same(c.name, name))!;
  const connectCreates = connectPlans.filter((p) => p.action === 'create');
  const connectErrors = new Map<string, unknown>();
  for (const plan of connectCreates) {
    const config = connectOf(plan.name);
    try {
      await ctx.brands.createConnect(connectBody(config, config.name), opts);
    } catch (error) {
      connectErrors.set(plan.identity, error);
    }
  }
  if (connectCreates.length > 0) {
    const listed = await ctx.brands.listConnect(opts);
    for (const plan of connectCreates) {
      const winner = findConnect(listed, plan.name);
      if (!winner?.connectId) {
        ctx.failed(
          plan,
          connectErrors.get(plan.identity) ??
            ctx.refused(`Connect configuration "${plan.name}"`, 'not listed after its creation'),
        );
        continue;
      }
      try {
        const losers = listed.filter((c) => same(c.name, plan.name) && c !== winner).map((c) => c.connectId!);
        await dropDuplicates(
          losers,
          (id) => ctx.brands.deleteConnect(id, opts),
          async () => (await ctx.brands.listConnect(opts)).map((c) => c.connectId ?? ''),
        );
        await ctx.done(plan, 'created', winner.connectId);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  }
  for (const plan of connectPlans.filter((p) => p.action !== 'create')) {
    try {
      if (plan.action === 'update') {
        const config = connectOf(plan.name);
        const there = findConnect(found.connect, plan.name);
        await ctx.brands.updateConnect(plan.id!, connectBody(config, there?.name ?? config.name), opts);
        await ctx.done(plan, 'updated', plan.id);
      } else if (plan.action === 'delete') {
        await ctx.brands.deleteConnect(plan.id!, opts);
        await ctx.done(plan, 'deleted', plan.id);
      } else await ctx.done(plan, plan.action === 'already-absent' ? 'already-absent' : 'up-to-date', plan.id);
    } catch (error) {
      ctx.failed(plan, error);
    }
  }
}
