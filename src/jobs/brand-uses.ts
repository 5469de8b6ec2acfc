import { didYouMean } from '../errors/did-you-mean.js';
import { placeOf, type JobContext } from './job-context.js';
import type { RawJobFile } from './raw-job.js';
import { fieldName } from './schema-check.js';

/**
 * Envelopes (and `defaults`) that name a brand kept as code (`brand:
 * <brandName>`): not together with `brandId` at the same level
 * (SR_BRAND_AND_BRAND_ID), and the name (ignoring case) must be a present
 * brand of an account entry of the same job file (SR_BRAND_NAME_UNKNOWN) —
 * checked offline, at the line. Whether the sending account has it is the
 * run's to find (runner/resources/account/account-brand-names.ts), before anything is sent. A
 * name holding a `${…}` reference is left to that check.
 */
export function checkBrandUses(job: RawJobFile, ctx: JobContext): void {
  const declared = (job.accounts ?? []).flatMap((a) =>
    (a.brands ?? []).filter((b) => b.state !== 'absent').map((b) => b.brandName),
  );
  const known = new Set(declared.map((n) => n.toLowerCase()));
  const check = (
    at: Array<string | number>,
    item: { brand?: string; brandId?: string } | undefined,
    what: string,
  ): void => {
    if (item?.brand === undefined) return;
    const say = (code: 'SR_BRAND_AND_BRAND_ID' | 'SR_BRAND_NAME_UNKNOWN', message: string) =>
      ctx.sink.add(code, message, placeOf(ctx, [...at, 'brand']), { field: fieldName([...at, 'brand']) });
    if (item.brandId !== undefined) {
      say('SR_BRAND_AND_BRAND_ID', `${what} gives both brand and brandId: keep one (brand names a brand kept as code)`);
      return;
    }
    if (item.brand.includes('${') || known.has(item.brand.toLowerCase())) return;
    const near = didYouMean(item.brand, declared);
    say(
      'SR_BRAND_NAME_UNKNOWN',
      `${what} uses brand ${JSON.stringify(item.brand)}, which no account entry of this job file keeps in its brands${near ? ` (did you mean "${near}"?)` : ''}; the brands here are: ${declared.map((n) => JSON.stringify(n)).join(', ') || '(none)'}`,
    );
  };
  check(['defaults'], job.defaults, 'defaults');
  job.envelopes?.forEach((envelope, e) => {
    check(['envelopes', e], envelope, `envelope ${envelope.key}`);
  });
}
