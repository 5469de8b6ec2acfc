import type { AccountResourceKind } from './resource-kind.js';
import { resourceKinds } from './resource-kinds.js';

// The catalogue's words for people, where `signrun plan` and the console
// summary print kinds (they know no kind by name).

/** One item of a kind, as `plan` prints it before the item's name: `Connect configuration`. */
export function itemWords(kind: string, kinds: readonly AccountResourceKind[] = resourceKinds): string {
  return kinds.find((k) => k.kind === kind)?.words.one ?? kind;
}

/**
 * The kinds of an account's contents for the console's summary line, in the
 * catalogue's order, each kind's words once, as one list: `profiles, groups,
 * users, brands and templates`. The people are always named (the line is
 * about them first); the other kinds when the contents hold some.
 */
export function summaryWords(
  contents: ReadonlyArray<{ kind: string }>,
  kinds: readonly AccountResourceKind[] = resourceKinds,
): string {
  const held = new Set(contents.map((i) => i.kind));
  const words: string[] = [];
  for (const kind of kinds)
    if ((kind.words.alwaysSummarised || held.has(kind.kind)) && !words.includes(kind.words.summary))
      words.push(kind.words.summary);
  return words.length === 1 ? words[0]! : `${words.slice(0, -1).join(', ')} and ${words.at(-1)!}`;
}
