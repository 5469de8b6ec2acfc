import { SignrunError } from '../../../errors/signrun-error.js';
import { didYouMean } from '../../../errors/did-you-mean.js';

/**
 * The faults `serve --faults` can inject into /restapi/** calls:
 * - `429`: refused before processing, with `Retry-After` (nothing done);
 * - `500`, `503`: failed before processing (nothing done);
 * - `reset-before`: the connection is destroyed before the request is
 *   processed (nothing done, the client sees a reset);
 * - `reset-after`: the request is processed and committed, then the
 *   connection is destroyed instead of answering (done, the client never
 *   hears of it — the case that makes blind retries send twice);
 * - `slow`: the answer is held back `delayMs` after processing;
 * - `truncate`: a document or certificate download is cut short mid-body,
 *   then the connection destroyed (only downloads can draw it).
 */
export type FaultKind = '429' | '500' | '503' | 'reset-before' | 'reset-after' | 'slow' | 'truncate';

/** Every kind, in the fixed order probabilities are laid out on [0, 1) (this order makes a seed reproducible). */
export const faultKinds: readonly FaultKind[] = [
  '429',
  '500',
  '503',
  'reset-before',
  'reset-after',
  'slow',
  'truncate',
];

/** One kind of fault and how often it strikes. */
export interface FaultRule {
  kind: FaultKind;
  /** Probability per eligible request, 0..1. */
  probability: number;
  /** `slow`: delay in ms (default 2000); `429`: Retry-After in seconds (default 1). Absent for the others. */
  param?: number;
}

/** A parsed `--faults` spec: the rules in `faultKinds` order; probabilities add up to at most 1. */
export interface FaultSpec {
  rules: FaultRule[];
  /** Sum of the probabilities. */
  total: number;
}

/** `slow` delay when the spec gives none, ms. */
export const defaultSlowMs = 2000;
/** `429` Retry-After when the spec gives none, seconds. */
export const defaultRetryAfterSeconds = 1;

/**
 * Parses a `--faults` spec: comma-separated `KIND=PROBABILITY[:PARAM]`, e.g.
 * `429=0.02,500=0.02,reset-after=0.02,slow=0.02:2000,truncate=0.02`. The
 * shorthand `all=P` spreads P evenly over every kind (`all=0.1`: 10% of
 * calls fail one way or another). Throws SR_USAGE naming the entry at fault:
 * unknown kind (with the closest known one), probability not in [0, 1], a
 * parameter on a kind that takes none, a kind given twice, or probabilities
 * adding up to more than 1.
 */
export function parseFaultSpec(text: string): FaultSpec {
  const byKind = new Map<FaultKind, FaultRule>();
  const entries = text.split(',').map((e) => e.trim());
  if (entries.every((e) => e === ''))
    fail(text, text, 'is empty; give KIND=PROBABILITY entries, e.g. "429=0.02,reset-after=0.02"');
  for (const entry of entries) {
    if (entry === '') fail(text, entry, 'has an empty entry (two commas in a row?)');
    const m = /^([a-z0-9-]+)\s*=\s*([^:]+?)\s*(?::\s*(.+))?$/i.exec(entry);
    if (!m) fail(text, entry, `entry "${entry}" is not of the form KIND=PROBABILITY (e.g. 500=0.02, slow=0.02:2000)`);
    const [, rawKind, rawProbability, rawParam] = m as unknown as [string, string, string, string | undefined];
    const kind = rawKind.toLowerCase();
    const probability = parseProbability(text, entry, rawProbability);
    if (kind === 'all') {
      if (rawParam !== undefined) fail(text, entry, '"all" takes no parameter');
      for (const k of faultKinds)
        add(byKind, text, entry, { kind: k, probability: probability / faultKinds.length, ...defaultParam(k) });
      continue;
    }
    if (!isFaultKind(kind)) {
      const near = didYouMean(kind, [...faultKinds, 'all'], 2);
      fail(
        text,
        entry,
        `"${rawKind}" is not a fault kind${near ? ` (did you mean "${near}"?)` : ''}; kinds: ${faultKinds.join(', ')}, all`,
      );
    }
    let param: number | undefined;
    if (rawParam !== undefined) {
      if (kind !== 'slow' && kind !== '429')
        fail(text, entry, `"${kind}" takes no parameter (only slow=P:MS and 429=P:SECONDS do)`);
      if (!/^\d+$/.test(rawParam) || Number(rawParam) > 600_000) {
        fail(
          text,
          entry,
          `"${rawParam}" is not a whole number ${kind === 'slow' ? 'of milliseconds (0–600000)' : 'of seconds'}`,
        );
      }
      param = Number(rawParam);
    }
    add(byKind, text, entry, { kind, probability, ...(param !== undefined ? { param } : defaultParam(kind)) });
  }
  const rules = faultKinds.flatMap((k) => {
    const r = byKind.get(k);
    return r && r.probability > 0 ? [r] : [];
  });
  const total = rules.reduce((sum, r) => sum + r.probability, 0);
  if (total > 1 + 1e-9) fail(text, text, `probabilities add up to ${round(total)}, more than 1`);
  return { rules, total };
}

/** The spec back as text, in canonical order (for logs and /sandbox/faults). */
export function formatFaultSpec(spec: FaultSpec): string {
  return spec.rules
    .map((r) => `${r.kind}=${round(r.probability)}${r.param !== undefined ? `:${r.param}` : ''}`)
    .join(',');
}

function add(byKind: Map<FaultKind, FaultRule>, text: string, entry: string, rule: FaultRule): void {
  const existing = byKind.get(rule.kind);
  if (existing) {
    fail(text, entry, `"${rule.kind}" is given twice`);
  }
  byKind.set(rule.kind, rule);
}

function defaultParam(kind: FaultKind): { param?: number } {
  if (kind === 'slow') return { param: defaultSlowMs };
  if (kind === '429') return { param: defaultRetryAfterSeconds };
  return {};
}

function parseProbability(text: string, entry: string, raw: string): number {
  const value = /^(\d+(\.\d*)?|\.\d+)$/.test(raw)
    ? Number(raw)
    : /^(\d+(\.\d*)?)%$/.test(raw)
      ? Number(raw.slice(0, -1)) / 100
      : NaN;
  if (!Number.isFinite(value) || value < 0 || value > 1) {
    fail(text, entry, `probability "${raw}" is not a number between 0 and 1 (e.g. 0.02, or 2%)`);
  }
  return value;
}

function isFaultKind(kind: string): kind is FaultKind {
  return (faultKinds as readonly string[]).includes(kind);
}

function round(n: number): number {
  return Math.round(n * 1e6) / 1e6;
}

function fail(spec: string, entry: string, what: string): never {
  throw new SignrunError('SR_USAGE', `--faults "${spec}": ${what}`, {
    hint: 'Give --faults as KIND=PROBABILITY entries separated by commas, e.g. "429=0.02,500=0.02,reset-after=0.02,slow=0.02:2000"; kinds: 429, 500, 503, reset-before, reset-after, slow, truncate (or all=P).',
    details: { option: '--faults', value: spec, entry },
  });
}
