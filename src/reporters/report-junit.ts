import { hintOf } from '../errors/catalogue.js';
import {
  placeOfEnvelope,
  type AccountResult,
  type EnvelopeResult,
  type TemplateResult,
} from '../runner/run-summary.js';
import type { ReportSource } from './report-json.js';
import { settledReasonOf } from './settled-reason.js';

/** Text as XML character data or an attribute value. */
export function xml(text: string): string {
  return (
    text
      .replace(/&/g, '&amp;')
      .replace(/</g, '&lt;')
      .replace(/>/g, '&gt;')
      .replace(/"/g, '&quot;')
      // XML 1.0 forbids most control characters, even escaped.
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '')
  );
}

/** Milliseconds as JUnit's seconds (`1.250`). */
export function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/** A failure's text: the step it failed at, when one had begun, and what to do next (the code's hint). */
function failureText(code: string | undefined, step: string | undefined, stepName: string): string {
  return [step !== undefined ? `${stepName}: ${step}` : undefined, hintOf(code)].filter(Boolean).join('\n');
}

function envelopeCase(e: EnvelopeResult): string {
  const head = `    <testcase classname="${xml(`${e.job}.envelopes`)}" name="${xml(e.key)}" time="${seconds(e.durationMs)}" file="${xml(placeOfEnvelope(e).file)}" line="${placeOfEnvelope(e).line}"`;
  let body: string;
  if (e.outcome === 'failed')
    body = `      <failure type="${xml(e.error?.code ?? 'SR_ENVELOPE_FAILED')}" message="${xml(e.error?.message ?? '')}">${xml(failureText(e.error?.code, e.error?.step, 'step'))}</failure>\n`;
  else if (e.outcome === 'not-started') body = '      <skipped message="not started: the run was interrupted"/>\n';
  else {
    const reason = settledReasonOf(e);
    body = `      <system-out>${xml(`envelopeId ${e.envelopeId ?? ''}${reason ? `; ${reason}` : ''}${e.recipients.some((r) => r.signing === 'waiting-for-turn') ? '; some signers wait for their turn' : ''}`)}</system-out>\n`;
  }
  return `${head}>\n${body}    </testcase>`;
}

function accountCase(a: AccountResult): string {
  const head = `    <testcase classname="${xml(`${a.job}.accounts`)}" name="${xml(a.key)}" time="${seconds(a.durationMs)}" file="${xml(a.source.file)}" line="${a.source.line}"`;
  let body: string;
  if (a.outcome === 'failed')
    body = `      <failure type="${xml(a.error?.code ?? 'SR_ACCOUNT_FAILED')}" message="${xml(a.error?.message ?? '')}">${xml(failureText(a.error?.code, a.error?.step, 'action'))}</failure>\n`;
  else if (a.outcome === 'not-started') body = '      <skipped message="not started: the run was interrupted"/>\n';
  else
    body = `      <system-out>${xml(`${a.outcome}${a.awaitingActivation ? ', awaiting activation' : ''}${a.accountId ? `; accountId ${a.accountId}` : ''}`)}</system-out>\n`;
  return `${head}>\n${body}    </testcase>`;
}

/** A template kept as code: a test case of the `templates` suite (classname `<job>.templates`). */
function templateCase(t: TemplateResult): string {
  const head = `    <testcase classname="${xml(`${t.job}.templates`)}" name="${xml(t.key)}" time="0" file="${xml(t.source.file)}" line="${t.source.line}"`;
  const body =
    t.outcome === 'failed'
      ? `      <failure type="${xml(t.error?.code ?? 'SR_TEMPLATE_FAILED')}" message="${xml(t.error?.message ?? '')}">${xml(failureText(t.error?.code, t.error?.step, 'action'))}</failure>\n`
      : `      <system-out>${xml(`${t.outcome === 'updated' && t.outside ? 'put back (changed outside signrun)' : t.outcome}${t.templateId ? `; templateId ${t.templateId}` : ''}${t.differences?.length ? `; ${t.differences.join('; ')}` : ''}`)}</system-out>\n`;
  return `${head}>\n${body}    </testcase>`;
}

interface SuiteCounts {
  tests: number;
  failures: number;
  skipped: number;
  /** When the suite's first item started and its last one ended (epoch ms), for items that say. */
  from: number;
  to: number;
}

/**
 * A suite's time is how long its job took, from its first item's start to
 * its last item's end: items run side by side, so the sum of their times
 * (what the suite said before) overstates it many times over.
 */
function suiteSeconds(c: SuiteCounts): string {
  return seconds(c.to > c.from ? c.to - c.from : 0);
}

const noCounts = (): SuiteCounts => ({ tests: 0, failures: 0, skipped: 0, from: Infinity, to: -Infinity });

/**
 * junit.xml as chunks: one test suite per job, one test case per envelope
 * and per account (classname `<job>.envelopes` / `<job>.accounts`, name the
 * key). Failed items are failures with the code; not-started items are
 * skipped. Suites come in the order their jobs first appear (envelopes,
 * then accounts); a suite holds its envelopes, then its accounts.
 *
 * Two reads of the envelopes: the first counts (a suite's tag carries its
 * counts), the second writes, so no test case is held in memory. A run's
 * envelopes come job by job; when they do not (a merged report), each
 * job's suite reads them again, keeping its own.
 */
export async function* reportJunitChunks(source: ReportSource): AsyncGenerator<string> {
  const counts = new Map<string, SuiteCounts>();
  const count = (job: string, outcome: string, startedAt: string | undefined, ms: number | undefined) => {
    let c = counts.get(job);
    if (!c) {
      c = noCounts();
      counts.set(job, c);
    }
    c.tests += 1;
    if (outcome === 'failed') c.failures += 1;
    if (outcome === 'not-started') c.skipped += 1;
    const start = startedAt === undefined ? NaN : Date.parse(startedAt);
    if (Number.isFinite(start)) {
      c.from = Math.min(c.from, start);
      c.to = Math.max(c.to, start + (ms ?? 0));
    }
  };
  let grouped = true;
  let current: string | undefined;
  for await (const e of source.envelopes()) {
    if (e.job !== current && counts.has(e.job)) grouped = false;
    current = e.job;
    count(e.job, e.outcome, e.startedAt, e.durationMs);
  }
  const accountsOf = new Map<string, AccountResult[]>();
  for (const a of source.accounts) {
    count(a.job, a.outcome, a.startedAt, a.durationMs);
    const list = accountsOf.get(a.job) ?? [];
    list.push(a);
    accountsOf.set(a.job, list);
  }

  const { head } = source;
  const templates = head.templates ?? [];
  const templateFailures = templates.filter((t) => t.outcome === 'failed').length;
  const total = { tests: templates.length, failures: templateFailures, skipped: 0 };
  for (const c of counts.values()) {
    total.tests += c.tests;
    total.failures += c.failures;
    total.skipped += c.skipped;
  }
  yield `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="signrun ${head.command ?? 'run'} ${xml(head.runId)}" tests="${total.tests}" failures="${total.failures}" errors="0" skipped="${total.skipped}" time="${seconds(head.durationMs)}">\n`;
  // Templates kept as code converge before any envelope: their suite comes first.
  if (templates.length > 0)
    yield `  <testsuite name="templates" tests="${templates.length}" failures="${templateFailures}" errors="0" skipped="0" time="0" timestamp="${xml(head.startedAt)}">\n${templates.map(templateCase).join('\n')}\n  </testsuite>\n`;
  const suiteOpen = (job: string, first: boolean) => {
    const c = counts.get(job) ?? noCounts();
    return `${first ? '' : '\n'}  <testsuite name="${xml(job)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${suiteSeconds(c)}" timestamp="${xml(head.startedAt)}">\n`;
  };
  const suiteAccounts = (job: string, first: boolean) =>
    (accountsOf.get(job) ?? []).map((a, i) => `${first && i === 0 ? '' : '\n'}${accountCase(a)}`).join('');
  const suiteClose = '\n  </testsuite>';

  let firstSuite = true;
  if (grouped) {
    let job: string | undefined;
    for await (const e of source.envelopes()) {
      if (e.job !== job) {
        if (job !== undefined) yield `${suiteAccounts(job, false)}${suiteClose}`;
        yield suiteOpen(e.job, firstSuite);
        firstSuite = false;
        job = e.job;
        yield envelopeCase(e);
      } else yield `\n${envelopeCase(e)}`;
    }
    if (job !== undefined) yield `${suiteAccounts(job, false)}${suiteClose}`;
  }
  for (const job of counts.keys()) {
    let firstCase = true;
    if (grouped) {
      if (!accountsOf.has(job) || counts.get(job)?.tests !== accountsOf.get(job)?.length) continue;
    } else {
      for await (const e of source.envelopes()) {
        if (e.job !== job) continue;
        if (firstCase) yield suiteOpen(job, firstSuite);
        yield `${firstCase ? '' : '\n'}${envelopeCase(e)}`;
        firstCase = false;
        firstSuite = false;
      }
    }
    if (firstCase) yield suiteOpen(job, firstSuite);
    yield `${suiteAccounts(job, firstCase)}${suiteClose}`;
    firstSuite = false;
  }
  yield '\n</testsuites>\n';
}

/** junit.xml's text in one string (small reports, tests): see {@link reportJunitChunks}. */
export async function reportJunit(source: ReportSource): Promise<string> {
  let text = '';
  for await (const chunk of reportJunitChunks(source)) text += chunk;
  return text;
}
