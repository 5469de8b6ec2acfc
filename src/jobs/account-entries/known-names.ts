import { didYouMean } from '../../errors/did-you-mean.js';
import type { AccountEntryContext } from './account-entry-kind.js';

/**
 * Reports a name an entry refers to (a profile, a group) that is neither
 * defined in the account entry's `list` nor one of `names` DocuSign gives
 * every account: SR_ACCOUNT_NAME_UNKNOWN, with the nearest name.
 */
export function checkKnownName(
  ctx: AccountEntryContext,
  what: string,
  list: string,
  name: string,
  names: readonly string[],
  path: Array<string | number>,
): void {
  if (names.some((n) => n.toLowerCase() === name.toLowerCase())) return;
  const near = didYouMean(name, [...names]);
  ctx.say(
    'SR_ACCOUNT_NAME_UNKNOWN',
    `${what} "${name}" is neither in this account's ${list} nor one DocuSign gives every account${near ? ` (did you mean "${near}"?)` : ''}`,
    path,
    `Known here: ${names.map((n) => `"${n}"`).join(', ')}.`,
  );
}
