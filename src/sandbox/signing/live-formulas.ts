import { tabsByKind, type Tabs } from '../../envelope/index.js';
import { evaluateFormula, formulaText, formulaValues } from '../esignature/envelopes/tabs/formula.js';
import { fieldName, isEditable } from '../esignature/envelopes/tabs/entered-values.js';

/**
 * The formula evaluator the sandbox computes formula tabs with on submit
 * (formula.ts), served to the page as an ES module (/signing/assets/formula.js)
 * so the page computes them as the signer types: its functions' own source,
 * not a second copy. Each is declared under the name it has here, which is
 * the name formulaValues's body calls it by (a bundler that renames one
 * renames both).
 */
export const formulaScript = [evaluateFormula, formulaText, formulaValues]
  .map((f) => `const ${f.name} = ${f.toString()};`)
  .concat(`export { ${formulaValues.name} as formulaValues };`)
  .join('\n');

/** A tab as the page's script reads it for formulas (formula.ts, FormulaInput), with where its value comes from. */
export interface LiveFormulaInput {
  /** The tab's form field (`tab.<tabId>`): the control the signer types in, or the read-only field showing a formula. */
  name: string;
  label?: string;
  value?: string;
  formula?: string;
  roundDecimalPlaces?: unknown;
  /** True when the value is what the signer types or picks (a text-like tab, a list), as the sign form applies it. */
  entered: boolean;
}

/**
 * The recipient's tabs as the page's formulas read them, in the order
 * computeFormulas reads them on submit; empty when no tab is a formula
 * (then the page computes nothing).
 */
export function liveFormulaInputs(tabs: Tabs): LiveFormulaInput[] {
  const all = tabsByKind(tabs);
  if (!all.some(({ kind }) => kind.valueType === 'formula')) return [];
  return all.map(({ kind, tab }) => ({
    name: fieldName(tab),
    ...(tab.tabLabel === undefined ? {} : { label: tab.tabLabel }),
    ...(tab.value === undefined ? {} : { value: tab.value }),
    ...(kind.valueType === 'formula' && typeof tab['formula'] === 'string'
      ? { formula: tab['formula'], roundDecimalPlaces: tab['roundDecimalPlaces'] }
      : {}),
    entered: isEditable(kind, tab) && kind.valueType !== 'boolean' && kind.valueType !== 'radio',
  }));
}
