/**
 * `items.map(f)`, as an array of one hidden class whoever runs it.
 * Array.prototype.map gives a packed array while its caller runs in V8's
 * interpreter and a holey one once TurboFan has optimised the caller (it
 * inlines `map` with an array made at its final length): two hidden classes
 * for the same list, and every optimised function reading such lists (the
 * checks of each row) was thrown away and compiled again when the second
 * came (issue 37: "wrong map" in `node --trace-deopt`, each a recompile of a
 * large function on V8's background threads). Array literals and `slice`
 * are packed in every tier, and the size of what they hold: an array grown
 * by push keeps room for 17 (~120 bytes more for each of a row's lists).
 */
export function packedMap<T, U>(items: readonly T[], f: (item: T, index: number) => U): U[] {
  switch (items.length) {
    case 0:
      return [];
    case 1:
      return [f(items[0]!, 0)];
    case 2:
      return [f(items[0]!, 0), f(items[1]!, 1)];
    default: {
      const out: U[] = [];
      for (let i = 0; i < items.length; i++) out.push(f(items[i]!, i));
      return out.slice();
    }
  }
}
