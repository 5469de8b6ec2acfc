import { describe, expect, it } from 'vitest';
import {
  chooseFault,
  faultKinds,
  formatFaultSpec,
  parseFaultSpec,
  seededRandom,
} from '../../src/sandbox/platform/faults/index.js';
import { SignrunError } from '../../src/errors/signrun-error.js';

describe('parseFaultSpec', () => {
  it('parses every kind, with parameters and defaults, in canonical order', () => {
    const spec = parseFaultSpec(
      'truncate=0.02, slow=0.02:1500,429=0.02,500=0.02,503=0.02,reset-before=0.02,reset-after=0.02',
    );
    expect(spec.rules.map((r) => r.kind)).toEqual(faultKinds);
    expect(spec.rules.find((r) => r.kind === 'slow')?.param).toBe(1500);
    expect(spec.rules.find((r) => r.kind === '429')?.param).toBe(1);
    expect(spec.total).toBeCloseTo(0.14);
    expect(formatFaultSpec(spec)).toBe(
      '429=0.02:1,500=0.02,503=0.02,reset-before=0.02,reset-after=0.02,slow=0.02:1500,truncate=0.02',
    );
  });

  it('accepts percentages and the all=P shorthand', () => {
    expect(parseFaultSpec('500=2%').rules[0]?.probability).toBeCloseTo(0.02);
    const all = parseFaultSpec('all=0.07');
    expect(all.rules).toHaveLength(faultKinds.length);
    expect(all.total).toBeCloseTo(0.07);
  });

  it.each([
    ['', ''],
    ['500', '500'],
    ['500=', '500='],
    ['50O=0.1', '50O=0.1'],
    ['reset=0.1', 'reset=0.1'],
    ['500=1.5', '500=1.5'],
    ['500=-0.1', '500=-0.1'],
    ['500=abc', '500=abc'],
    ['500=0.1:20', '500=0.1:20'],
    ['slow=0.1:fast', 'slow=0.1:fast'],
    ['500=0.1,,503=0.1', ''],
    ['500=0.1,500=0.2', '500=0.2'],
    ['all=0.1,500=0.1', '500=0.1'],
    ['500=0.6,503=0.6', '500=0.6,503=0.6'],
  ])('rejects %j with SR_USAGE naming the entry', (text, entry) => {
    let caught: unknown;
    try {
      parseFaultSpec(text);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(SignrunError);
    expect((caught as SignrunError).code).toBe('SR_USAGE');
    expect((caught as SignrunError).details).toMatchObject({ option: '--faults', value: text, entry });
  });

  it('suggests the closest kind for a typo', () => {
    try {
      parseFaultSpec('reset-afer=0.1');
      expect.unreachable();
    } catch (error) {
      expect((error as SignrunError).message).toContain('reset-after');
    }
  });
});

describe('chooseFault', () => {
  const api = { method: 'POST', url: '/restapi/v2/accounts/a/envelopes' };
  const download = { method: 'GET', url: '/restapi/v2/accounts/a/envelopes/e/documents/1' };

  it('strikes each kind at its probability (one draw per request)', () => {
    const spec = parseFaultSpec('429=0.05,500=0.1,reset-after=0.15');
    const random = seededRandom(7);
    const counts = new Map<string, number>();
    const n = 20_000;
    for (let i = 0; i < n; i++) {
      const kind = chooseFault(spec, random, api)?.kind ?? 'none';
      counts.set(kind, (counts.get(kind) ?? 0) + 1);
    }
    for (const [kind, p] of [
      ['429', 0.05],
      ['500', 0.1],
      ['reset-after', 0.15],
      ['none', 0.7],
    ] as const) {
      const sd = Math.sqrt(n * p * (1 - p));
      expect(Math.abs((counts.get(kind) ?? 0) - n * p), kind).toBeLessThan(4 * sd);
    }
  });

  it('truncates downloads only', () => {
    const spec = parseFaultSpec('truncate=1');
    expect(chooseFault(spec, seededRandom(1), download)?.kind).toBe('truncate');
    expect(
      chooseFault(spec, seededRandom(1), {
        method: 'GET',
        url: '/restapi/v2/accounts/a/envelopes/e/documents/certificate?watermark=false',
      })?.kind,
    ).toBe('truncate');
    expect(
      chooseFault(spec, seededRandom(1), { method: 'GET', url: '/restapi/v2/accounts/a/envelopes/e/documents' }),
    ).toBeUndefined();
    expect(chooseFault(spec, seededRandom(1), api)).toBeUndefined();
  });

  it('is reproducible: the same seed gives the same faults for the same requests', () => {
    const spec = parseFaultSpec('all=0.5');
    const run = (seed: number) => {
      const random = seededRandom(seed);
      return Array.from(
        { length: 200 },
        (_, i) => chooseFault(spec, random, i % 3 === 0 ? download : api)?.kind ?? '-',
      ).join(' ');
    };
    expect(run(42)).toBe(run(42));
    expect(run(43)).not.toBe(run(42));
  });
});
