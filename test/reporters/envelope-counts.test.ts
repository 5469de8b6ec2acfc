import { describe, expect, it } from 'vitest';
import {
  countEnvelopeResult,
  emptyEnvelopeCounts,
  envelopeCountsText,
  type EnvelopeCounts,
} from '../../src/reporters/envelope-counts.js';
import type { EnvelopeResult } from '../../src/runner/run-summary.js';

// Issue 35: a run's final line says what it did with the envelopes ("5 sent
// or adopted, 2 voided"), not "7 of 7 envelope(s) sent" for a run that voided two.

const result = (extra: Partial<EnvelopeResult>): EnvelopeResult => ({
  job: 'j',
  key: 'k',
  source: { file: 'j.yaml', line: 1, column: 1 },
  outcome: 'succeeded',
  recipients: [],
  files: [],
  apiCalls: 1,
  retries: 0,
  ...extra,
});

const counted = (results: readonly Partial<EnvelopeResult>[]): EnvelopeCounts => {
  const counts = emptyEnvelopeCounts();
  for (const r of results) countEnvelopeResult(counts, result(r));
  return counts;
};

describe('the run’s envelopes in words', () => {
  const sent = { envelopeId: 'e', status: 'sent' };
  const adopted = { envelopeId: 'e', status: 'sent', adopted: true };
  const voided = { envelopeId: 'e', status: 'voided', adopted: true };
  it.each([
    [[sent], '1 envelope sent'],
    [
      [sent, sent, adopted, adopted, adopted, voided, voided],
      '5 envelopes sent or adopted (3 of them by an earlier run or one running alongside: adopted, not sent again), 2 voided',
    ],
    [
      [adopted, voided],
      '1 envelope adopted (sent by an earlier run or one running alongside, not sent again), 1 voided',
    ],
    [[voided, voided], '2 envelopes voided'],
    [
      [
        { envelopeId: 'e', status: 'completed', adopted: true },
        { envelopeId: 'e', status: 'declined' },
      ],
      '1 envelope already completed, 1 already declined',
    ],
    [[{}], '1 envelope not sent (voided in the job file before sending)'],
    [[sent, { outcome: 'failed' }], '1 envelope sent, 1 failed'],
    [[{ outcome: 'failed' }, { outcome: 'failed' }], '2 envelopes failed'],
  ] as const)('%j → %s', (results, text) => {
    expect(envelopeCountsText(counted(results as readonly Partial<EnvelopeResult>[]))).toBe(text);
  });

  it('colours only the failures', () => {
    expect(envelopeCountsText(counted([sent, { outcome: 'failed' }]), (s) => `<red>${s}</red>`)).toBe(
      '1 envelope sent, <red>1 failed</red>',
    );
  });
});
