import type { RunReport } from './report-json.js';

function xml(text: string): string {
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

function seconds(ms: number | undefined): string {
  return ((ms ?? 0) / 1000).toFixed(3);
}

/**
 * junit.xml: one test suite per job, one test case per envelope and per
 * account (classname `<job>.envelopes` / `<job>.accounts`, name the key).
 * Failed items are failures with the code; not-started items are skipped.
 */
export function reportJunit(report: RunReport): string {
  const jobs = new Map<string, string[]>();
  const counts = new Map<string, { tests: number; failures: number; skipped: number; time: number }>();
  const add = (job: string, text: string, failed: boolean, skipped: boolean, ms: number | undefined) => {
    const list = jobs.get(job) ?? [];
    list.push(text);
    jobs.set(job, list);
    const c = counts.get(job) ?? { tests: 0, failures: 0, skipped: 0, time: 0 };
    c.tests += 1;
    if (failed) c.failures += 1;
    if (skipped) c.skipped += 1;
    c.time += ms ?? 0;
    counts.set(job, c);
  };
  for (const e of report.envelopes) {
    const head = `    <testcase classname="${xml(`${e.job}.envelopes`)}" name="${xml(e.key)}" time="${seconds(e.durationMs)}" file="${xml(e.source.file)}" line="${e.source.line}"`;
    let body: string;
    if (e.outcome === 'failed')
      body = `      <failure type="${xml(e.error?.code ?? 'SR_ENVELOPE_FAILED')}" message="${xml(e.error?.message ?? '')}">${xml(`step: ${e.error?.step ?? '?'}`)}</failure>\n`;
    else if (e.outcome === 'not-started') body = '      <skipped message="not started: the run was interrupted"/>\n';
    else
      body = `      <system-out>${xml(`envelopeId ${e.envelopeId ?? ''}${e.recipients.some((r) => r.signing === 'waiting-for-turn') ? '; some signers wait for their turn' : ''}`)}</system-out>\n`;
    add(e.job, `${head}>\n${body}    </testcase>`, e.outcome === 'failed', e.outcome === 'not-started', e.durationMs);
  }
  for (const a of report.accounts) {
    const head = `    <testcase classname="${xml(`${a.job}.accounts`)}" name="${xml(a.key)}" time="${seconds(a.durationMs)}" file="${xml(a.source.file)}" line="${a.source.line}"`;
    let body: string;
    if (a.outcome === 'failed')
      body = `      <failure type="${xml(a.error?.code ?? 'SR_ACCOUNT_FAILED')}" message="${xml(a.error?.message ?? '')}">${xml(`action: ${a.error?.step ?? '?'}`)}</failure>\n`;
    else if (a.outcome === 'not-started') body = '      <skipped message="not started: the run was interrupted"/>\n';
    else
      body = `      <system-out>${xml(`${a.outcome}${a.awaitingActivation ? ', awaiting activation' : ''}${a.accountId ? `; accountId ${a.accountId}` : ''}`)}</system-out>\n`;
    add(a.job, `${head}>\n${body}    </testcase>`, a.outcome === 'failed', a.outcome === 'not-started', a.durationMs);
  }
  const total = { tests: 0, failures: 0, skipped: 0 };
  const suites: string[] = [];
  for (const [job, cases] of jobs) {
    const c = counts.get(job) ?? { tests: 0, failures: 0, skipped: 0, time: 0 };
    total.tests += c.tests;
    total.failures += c.failures;
    total.skipped += c.skipped;
    suites.push(
      `  <testsuite name="${xml(job)}" tests="${c.tests}" failures="${c.failures}" errors="0" skipped="${c.skipped}" time="${seconds(c.time)}" timestamp="${xml(report.startedAt)}">\n${cases.join('\n')}\n  </testsuite>`,
    );
  }
  return `<?xml version="1.0" encoding="UTF-8"?>\n<testsuites name="signrun run ${xml(report.runId)}" tests="${total.tests}" failures="${total.failures}" errors="0" skipped="${total.skipped}" time="${seconds(report.durationMs)}">\n${suites.join('\n')}\n</testsuites>\n`;
}
