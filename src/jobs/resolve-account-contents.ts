import type { AccountEntryContext, AccountEntryKind, EntryUniqueness } from './account-entries/account-entry-kind.js';
import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedAccount } from './model.js';
import type { RawAccount } from './raw-job.js';
import { fieldName } from './schema-check.js';

/**
 * What one account entry keeps inside the account (permission profiles,
 * groups, users, brands, Connect configurations …: the `kinds` given, in
 * their order, each resolving its own field), checked offline: names unique
 * as DocuSign keeps them (ignoring case), reported at the line of the field.
 * `${env.*}` substituted by `sub`. A field with no entries is left out.
 */
export function resolveAccountContents(
  raw: RawAccount,
  base: Array<string | number>,
  ctx: JobContext,
  sub: (value: string) => string,
  kinds: readonly AccountEntryKind[],
): Partial<ResolvedAccount> {
  const contents: Record<string, unknown> = {};
  const entry: AccountEntryContext = {
    job: ctx,
    base,
    sub,
    say: (code, message, path, hint) =>
      ctx.sink.add(code, message, placeOf(ctx, [...base, ...path]), {
        field: fieldName([...base, ...path]),
        ...(hint ? { hint } : {}),
      }),
    sourceOf: (path) => ({ file: ctx.file, ...ctx.locator.locate([...base, ...path]) }),
    resolved: contents,
  };
  for (const kind of kinds) {
    const items = kind.resolve(raw, entry);
    if (items.length > 0) contents[kind.field] = items;
    if (kind.unique) keepUnique(items, kind.unique, kind.field, entry);
  }
  return contents;
}

/** Keeps the first of each name (lower-cased), reporting the later ones. */
function keepUnique<T>(items: readonly T[], rule: EntryUniqueness<T>, list: string, ctx: AccountEntryContext): void {
  const seen = new Map<string, number>();
  for (const [i, item] of items.entries()) {
    const name = rule.name(item).toLowerCase();
    const first = seen.get(name);
    if (first !== undefined)
      ctx.say(
        'SR_ACCOUNT_NAME_DUPLICATE',
        `${rule.what} "${rule.name(item)}" is given twice in this account (also ${list}[${first}])${rule.why}`,
        [list, i, rule.field],
      );
    else seen.set(name, i);
  }
}
