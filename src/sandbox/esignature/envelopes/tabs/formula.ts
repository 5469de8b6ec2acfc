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

/** A tab as formulas read it: its label and value; a formula tab also its formula and rounding. */
export interface FormulaInput {
  label?: string | undefined;
  value?: string | undefined;
  formula?: string | undefined;
  roundDecimalPlaces?: unknown;
}

/**
 * Every tab's value once the formula tabs are computed from the values of
 * the tabs their `[TabLabel]`s name (a formula may name another formula:
 * computed in order, a few rounds); a formula it cannot read keeps its value.
 * The signing page's script runs this same code as the signer types
 * (signing/formula-script.ts serves its source): it names nothing but
 * evaluateFormula and formulaText.
 */
export function formulaValues(tabs: readonly FormulaInput[]): (string | undefined)[] {
  let values = tabs.map((t) => t.value);
  for (let round = 0; round < 3; round++) {
    const byLabel = new Map<string, string>();
    tabs.forEach((t, i) => {
      const value = values[i];
      if (t.label !== undefined && value !== undefined) byLabel.set(t.label, value);
    });
    values = tabs.map((t, i) => {
      if (t.formula === undefined) return values[i];
      const result = evaluateFormula(t.formula, (label) => byLabel.get(label));
      return result === undefined ? values[i] : formulaText(result, t.roundDecimalPlaces);
    });
  }
  return values;
}
