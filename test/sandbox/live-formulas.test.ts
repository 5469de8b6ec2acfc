import { describe, expect, it } from 'vitest';
import { formulaValues, type FormulaInput } from '../../src/sandbox/esignature/envelopes/tabs/formula.js';
import { formulaScript, liveFormulaInputs } from '../../src/sandbox/signing/live-formulas.js';

// The signing page computes formula tabs with the sandbox's own evaluator:
// the module it is served (formula.js) must run on its own, outside this
// code base, and give what the sandbox computes on submit.

const tabs: FormulaInput[] = [
  { label: 'Amount', value: '50' },
  { label: 'Rate', value: '1,5' },
  { label: 'Doubled', formula: '[Amount] * 2' },
  { label: 'Total', formula: '([Doubled] + [Amount]) / 7', roundDecimalPlaces: '2' },
  { label: 'Broken', value: 'kept', formula: 'SUM([Amount])' },
];

describe('formula tabs computed on the signing page', () => {
  it('the served module runs on its own and computes what the sandbox computes', async () => {
    const served = (await import(`data:text/javascript,${encodeURIComponent(formulaScript)}`)) as {
      formulaValues: typeof formulaValues;
    };
    expect(served.formulaValues(tabs)).toEqual(formulaValues(tabs));
    expect(formulaValues(tabs)).toEqual(['50', '1,5', '100', '21.43', 'kept']);
  });

  it('reads every tab of a signer with a formula, the ones they type in marked, and none without one', () => {
    const inputs = liveFormulaInputs({
      currencyTabs: [{ tabId: 'a', tabLabel: 'Amount' }],
      noteTabs: [{ tabId: 'n', tabLabel: 'Note', value: '3' }],
      formulaTabs: [{ tabId: 'f', tabLabel: 'Doubled', formula: '[Amount] * 2' }],
    });
    expect(inputs.map((i) => [i.name, i.entered, i.formula])).toEqual([
      ['tab.n', false, undefined],
      ['tab.f', false, '[Amount] * 2'],
      ['tab.a', true, undefined],
    ]);
    expect(liveFormulaInputs({ textTabs: [{ tabId: 't', tabLabel: 'Name' }] })).toEqual([]);
  });
});
