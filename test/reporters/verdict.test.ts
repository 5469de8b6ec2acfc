import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/run-cli.js';
import { reportJson, reportOf, type RunReport } from '../../src/reporters/report-json.js';
import { reportMarkdown } from '../../src/reporters/report-markdown.js';
import { consoleSummary } from '../../src/reporters/console-summary.js';
import {
  exitCodeOf,
  totalsOf,
  verdictOf,
  type AccountResult,
  type EnvelopeResult,
  type RunSummary,
  type RunVerdict,
} from '../../src/runner/run-summary.js';
import type { CallBudgetReport } from '../../src/runner/call-budget.js';

// One verdict, four readers: `run` (exitCodeOf of the live summary), `report
// merge` (the built CLI on that run's report.json), report.md's title and the
// console's first line. Each row is a way a run can end; all four must agree.

const source = { file: '/repo/jobs/offers.yaml', line: 3, column: 5 };

const envelope = (key: string, outcome: EnvelopeResult['outcome']): EnvelopeResult => ({
  job: 'offers',
  key,
  source,
  outcome,
  recipients: [],
  files: [],
  apiCalls: outcome === 'not-started' ? 0 : 5,
  retries: 0,
  ...(outcome === 'failed'
    ? { error: { code: 'SR_HTTP_STATUS', message: 'POST /x answered 400', step: 'create' } }
    : {}),
});

const account = (key: string, outcome: AccountResult['outcome']): AccountResult => ({
  job: 'subs',
  key,
  source,
  state: 'present',
  outcome,
  files: [],
  apiCalls: 1,
  retries: 0,
  ...(outcome === 'failed' ? { error: { code: 'SR_HTTP_STATUS', message: 'POST /accounts answered 400' } } : {}),
});

const spent: CallBudgetReport = {
  maxCallsPerHour: 20,
  used: 20,
  exhausted: true,
  resumeAt: '2026-11-20T11:00:00.000Z',
  code: 'SR_CALL_BUDGET_SPENT',
};

interface Case {
  name: string;
  envelopes: EnvelopeResult[];
  accounts?: AccountResult[];
  interrupted?: boolean;
  callBudget?: CallBudgetReport;
  verdict: RunVerdict;
  exitCode: number;
}

const cases: Case[] = [
  { name: 'everything sent', envelopes: [envelope('a', 'succeeded')], verdict: 'succeeded', exitCode: 0 },
  {
    name: 'accounts created (awaiting activation) are not failures',
    envelopes: [envelope('a', 'succeeded')],
    accounts: [account('acme', 'created'), account('old', 'already-absent')],
    verdict: 'succeeded',
    exitCode: 0,
  },
  { name: 'nothing to do', envelopes: [], verdict: 'succeeded', exitCode: 0 },
  {
    name: 'a budget that was not spent',
    envelopes: [envelope('a', 'succeeded')],
    callBudget: { maxCallsPerHour: 100, used: 5, exhausted: false },
    verdict: 'succeeded',
    exitCode: 0,
  },
  {
    name: 'an envelope failed',
    envelopes: [envelope('a', 'succeeded'), envelope('b', 'failed')],
    verdict: 'failed',
    exitCode: 1,
  },
  {
    name: 'an account failed',
    envelopes: [envelope('a', 'succeeded')],
    accounts: [account('acme', 'failed')],
    verdict: 'failed',
    exitCode: 1,
  },
  // `run --max-calls-per-hour 20` exited 1 here while `report merge` of its report exited 0.
  {
    name: 'budget spent, items left not started',
    envelopes: [envelope('a', 'succeeded'), envelope('b', 'not-started')],
    callBudget: spent,
    verdict: 'budget-spent',
    exitCode: 1,
  },
  {
    name: 'budget spent and a failure',
    envelopes: [envelope('a', 'failed'), envelope('b', 'not-started')],
    callBudget: spent,
    verdict: 'budget-spent',
    exitCode: 1,
  },
  {
    name: 'interrupted',
    envelopes: [envelope('a', 'succeeded'), envelope('b', 'not-started')],
    interrupted: true,
    verdict: 'interrupted',
    exitCode: 130,
  },
  {
    name: 'interrupted wins over failures and a spent budget',
    envelopes: [envelope('a', 'failed'), envelope('b', 'not-started')],
    interrupted: true,
    callBudget: spent,
    verdict: 'interrupted',
    exitCode: 130,
  },
];

function summaryOf(c: Case): RunSummary {
  const accounts = c.accounts ?? [];
  return {
    runId: `run-${c.name.replace(/\W+/g, '-')}`,
    target: { rootUrl: 'http://127.0.0.1:1/restapi/v2', sandbox: false },
    startedAt: '2026-11-20T10:00:00.000Z',
    endedAt: '2026-11-20T10:00:05.000Z',
    durationMs: 5000,
    interrupted: c.interrupted ?? false,
    concurrency: 4,
    outDir: '/repo/out',
    totals: totalsOf({ envelopes: c.envelopes, accounts }),
    envelopes: async function* () {
      yield* c.envelopes;
    },
    accounts,
    api: { calls: 20, retries: 0, byOperation: { createEnvelope: 2 }, failedCalls: 0 },
    ...(c.callBudget ? { callBudget: c.callBudget } : {}),
    close: async () => undefined,
  };
}

/** report.md's title and the console's first line for each verdict. */
const titles: Record<RunVerdict, { markdown: string; console: string }> = {
  succeeded: { markdown: '# signrun run succeeded', console: 'Done' },
  failed: { markdown: '# signrun run failed', console: 'Finished with failures' },
  'budget-spent': {
    markdown: '# signrun run stopped: hourly call budget spent',
    console: 'Stopped: hourly call budget spent',
  },
  interrupted: { markdown: '# signrun run interrupted', console: 'Interrupted' },
};

const plain = { red: String, green: String, yellow: String, bold: String, dim: String };

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'signrun-verdict-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function inMemory(summary: RunSummary): Promise<RunReport> {
  const report = reportOf(summary);
  const envelopes: EnvelopeResult[] = [];
  for await (const e of report.envelopes()) envelopes.push(e);
  return { ...report.head, envelopes, accounts: report.accounts };
}

describe('one verdict: run, report merge, report.md and the console agree', () => {
  it.each(cases.map((c) => [c.name, c] as const))('%s', async (_name, c) => {
    const summary = summaryOf(c);
    // run: the exit code `signrun run` returns for its summary.
    expect(verdictOf(summary)).toBe(c.verdict);
    expect(exitCodeOf(summary)).toBe(c.exitCode);

    // report.md and the console, from the same summary.
    const markdown = await reportMarkdown(reportOf(summary));
    expect(markdown.split('\n')[0]).toContain(titles[c.verdict].markdown);
    const text = await consoleSummary(reportOf(summary), { outShown: 'out', colour: plain });
    expect(text.split('\n').find((l) => l.trim() !== '')).toMatch(new RegExp(`^${titles[c.verdict].console} in `));

    // report merge of that run's report.json, through the built CLI.
    const caseDir = path.join(dir, summary.runId);
    const reportFile = path.join(dir, `${summary.runId}.json`);
    await writeFile(reportFile, reportJson(await inMemory(summary)));
    const merged = await runCli(['report', 'merge', reportFile, '--out', caseDir], { cwd: dir });
    expect(merged.code, merged.stderr).toBe(c.exitCode);
    const mergedMarkdown = await readFile(path.join(caseDir, 'report.md'), 'utf8');
    expect(mergedMarkdown.split('\n')[0]).toContain(titles[c.verdict].markdown);
  });
});
