/**
 * DocuSign's formula tabs, their arithmetic part: numbers, `[TabLabel]`
 * references to other tabs' values, + - * / and parentheses. A reference to a
 * tab with no number counts as 0, as DocuSign computes an empty field. Returns
 * undefined for a formula it cannot read (functions, comparisons …) or a
 * division by zero.
 */
export function evaluateFormula(formula: string, valueOf: (label: string) => string | undefined): number | undefined {
  const tokens = formula.match(/\[[^\]]*\]|\d+(?:\.\d+)?|\.\d+|[-+*/()]|\S/g) ?? [];
  let at = 0;
  const peek = () => tokens[at];
  const fail = new Error('unreadable formula');
  const number = (text: string | undefined): number => {
    const n = Number((text ?? '').replace(/[,$\s]/g, ''));
    return text === undefined || text.trim() === '' || !Number.isFinite(n) ? 0 : n;
  };
  function primary(): number {
    const t = tokens[at++];
    if (t === undefined) throw fail;
    if (t === '(') {
      const v = sum();
      if (tokens[at++] !== ')') throw fail;
      return v;
    }
    if (t === '-') return -primary();
    if (t === '+') return primary();
    if (t.startsWith('[')) return number(valueOf(t.slice(1, -1).trim()));
    if (/^(\d|\.)/.test(t)) return Number(t);
    throw fail;
  }
  function product(): number {
    let v = primary();
    for (let op = peek(); op === '*' || op === '/'; op = peek()) {
      at++;
      const r = primary();
      if (op === '/' && r === 0) throw fail;
      v = op === '*' ? v * r : v / r;
    }
    return v;
  }
  function sum(): number {
    let v = product();
    for (let op = peek(); op === '+' || op === '-'; op = peek()) {
      at++;
      const r = product();
      v = op === '+' ? v + r : v - r;
    }
    return v;
  }
  try {
    const v = sum();
    return at === tokens.length && Number.isFinite(v) ? v : undefined;
  } catch (error) {
    if (error === fail) return undefined;
    throw error;
  }
}

/** A formula's result as its tab shows it: `roundDecimalPlaces` digits (default: as computed, at most 10). */
export function formulaText(value: number, roundDecimalPlaces: unknown): string {
  const places = Number(roundDecimalPlaces);
  if (Number.isInteger(places) && places >= 0 && places <= 10) return value.toFixed(places);
  return String(Number(value.toFixed(10)));
}
