import { errorCatalogue } from '../../src/errors/catalogue.js';
import { describe, expect, it } from 'vitest';
import {
  reportJson,
  reportJsonChunks,
  reportOf,
  reportSourceOf,
  type ReportSource,
  type RunReport,
} from '../../src/reporters/report-json.js';
import { reportMarkdown } from '../../src/reporters/report-markdown.js';
import { reportJunit } from '../../src/reporters/report-junit.js';
import { reportHtml } from '../../src/reporters/report-html.js';
import { checkReport } from '../../src/reporters/report-schema.js';
import { mergeReports } from '../../src/reporters/merge-reports.js';
import { consoleSummary, type ConsoleSummaryOptions } from '../../src/reporters/console-summary.js';
import {
  exitCodeOf,
  totalsOf,
  type AccountResult,
  type EnvelopeResult,
  type RunSummary,
} from '../../src/runner/run-summary.js';

const source = { file: '/repo/jobs/offers.yaml', line: 12, column: 5 };

/** What a test gives: a summary's fields with its envelopes in an array. */
type SummaryFields = Omit<RunSummary, 'envelopes' | 'close' | 'totals'> & { envelopes: EnvelopeResult[] };

/** A RunSummary over results in hand: totals counted from them, envelopes read from the array. */
function summary(overrides: Partial<SummaryFields> = {}): RunSummary {
  const { envelopes, ...fields } = fields_(overrides);
  return {
    ...fields,
    totals: totalsOf({ envelopes, accounts: fields.accounts }),
    envelopes: async function* () {
      yield* envelopes;
    },
    close: async () => undefined,
  };
}

/** The console summary's colours, off: its text as a pipe or NO_COLOR gets it. */
const noColour: ConsoleSummaryOptions['colour'] = {
  red: (x) => x,
  green: (x) => x,
  yellow: (x) => x,
  bold: (x) => x,
  dim: (x) => x,
};

/** The whole report in memory (for the schema and merge checks). */
async function inMemory(source: ReportSource): Promise<RunReport> {
  const envelopes: EnvelopeResult[] = [];
  for await (const e of source.envelopes()) envelopes.push(e);
  return { ...source.head, envelopes, accounts: source.accounts };
}

function fields_(overrides: Partial<SummaryFields>): SummaryFields {
  return {
    runId: 'run-1',
    target: { rootUrl: 'https://user:pw@demo.example.com/restapi/v2?token=abc', sandbox: false },
    startedAt: '2026-11-20T10:00:00.000Z',
    endedAt: '2026-11-20T10:00:05.000Z',
    durationMs: 5000,
    interrupted: false,
    concurrency: 8,
    outDir: '/repo/out',
    envelopes: [
      {
        job: 'offers',
        key: 'ok',
        source,
        outcome: 'succeeded',
        envelopeId: 'e1',
        recipients: [
          { recipientId: '1', clientUserId: 'c1', signing: 'ready' },
          { recipientId: '2', clientUserId: 'c2', routingOrder: '2', signing: 'waiting-for-turn' },
        ],
        files: [{ path: 'offers/ok/envelope.json', size: 10, sha256: 'a'.repeat(64) }],
        apiCalls: 7,
        retries: 0,
      },
      {
        job: 'offers',
        key: 'bad <&>',
        source,
        outcome: 'failed',
        recipients: [],
        files: [],
        apiCalls: 1,
        retries: 2,
        error: {
          code: 'SR_HTTP_STATUS',
          message: 'POST /x answered 400 INVALID_EMAIL_ADDRESS_FOR_RECIPIENT: "bad" <&>',
          step: 'create',
          status: 400,
          serviceErrorCode: 'INVALID_EMAIL_ADDRESS_FOR_RECIPIENT',
        },
      },
      {
        job: 'offers',
        key: 'later',
        source,
        outcome: 'not-started',
        recipients: [],
        files: [],
        apiCalls: 0,
        retries: 0,
      },
    ],
    accounts: [
      {
        job: 'subs',
        key: 'acme',
        source,
        state: 'present',
        outcome: 'created',
        awaitingActivation: true,
        accountId: 'a1',
        userId: 'u1',
        files: [],
        apiCalls: 1,
        retries: 0,
      },
    ],
    api: {
      calls: 9,
      retries: 2,
      failedCalls: 3,
      byOperation: { createEnvelope: 2 },
      rateLimit: { limit: 3000, remaining: 2991 },
    },
    ...overrides,
  };
}

describe('reporters', () => {
  it('report.json follows its schema, names files relative to the working folder and strips user info from the target', async () => {
    const report = await inMemory(reportOf(summary(), '/repo'));
    expect(checkReport(report)).toEqual([]);
    expect(report.envelopes[0]?.source.file).toBe('jobs/offers.yaml');
    expect(report.target.rootUrl).toBe('https://demo.example.com/restapi/v2');
    expect(report.totals.envelopes).toEqual({ total: 3, succeeded: 1, failed: 1, notStarted: 1, waitingForTurn: 1 });
    expect(report.totals.accounts.created).toBe(1);
  });

  it('report.json streamed in chunks is the same text as in one piece', async () => {
    for (const s of [summary(), summary({ envelopes: [], accounts: [] }), summary({ accounts: [] })]) {
      let text = '';
      for await (const chunk of reportJsonChunks(reportOf(s))) text += chunk;
      expect(text).toBe(reportJson(await inMemory(reportOf(s))));
      expect(JSON.parse(text)).toEqual(await inMemory(reportOf(s)));
    }
  });

  it('the schema refuses what it does not describe', async () => {
    const report = (await inMemory(reportOf(summary()))) as unknown as Record<string, unknown>;
    expect(checkReport({ ...report, extra: 1 })).not.toEqual([]);
    expect(checkReport({ ...report, envelopes: [{ job: 'x' }] })).not.toEqual([]);
  });

  it('report.md lists failures, waiting signers, accounts awaiting activation and interrupted work', async () => {
    const md = await reportMarkdown(reportOf(summary()));
    expect(md).toMatch(/^# signrun run failed/);
    expect(md).toContain('SR_HTTP_STATUS');
    expect(md).toContain('## Waiting for their turn');
    expect(md).toContain('`c2`');
    expect(md).toContain('## Accounts awaiting activation');
    expect(md).toContain('1 item(s) were not started');
    expect(md).toContain('2991/3000 left');
  });

  it('junit.xml has one test case per envelope and account, escaped, with failures and skips counted', async () => {
    const xml = await reportJunit(reportOf(summary()));
    expect(xml.match(/<testcase /g)).toHaveLength(4);
    expect(xml).toContain('<testsuites name="signrun run run-1" tests="4" failures="1" errors="0" skipped="1"');
    expect(xml).toContain('name="bad &lt;&amp;&gt;"');
    expect(xml).toContain('<failure type="SR_HTTP_STATUS"');
    expect(xml).not.toMatch(/<[^>]*"bad" <&>/);
  });

  it('junit.xml gives a suite the time its job took, first start to last end, not the sum of its items side by side', async () => {
    const at = (key: string, startedAt: string, durationMs: number): EnvelopeResult => ({
      ...fields_({}).envelopes[0]!,
      key,
      startedAt,
      durationMs,
    });
    // Three envelopes of 250 ms each, run side by side from 10:00:00.100 to 10:00:00.400.
    const xml = await reportJunit(
      reportOf(
        summary({
          envelopes: [
            at('a', '2026-11-20T10:00:00.100Z', 250),
            at('b', '2026-11-20T10:00:00.120Z', 250),
            at('c', '2026-11-20T10:00:00.150Z', 250),
            { ...fields_({}).envelopes[2]! },
          ],
          accounts: [],
        }),
      ),
    );
    expect(xml).toMatch(/<testsuite name="offers" tests="4" failures="0" errors="0" skipped="1" time="0\.300"/);
  });

  it('every report says why a declined or a voided envelope ended', async () => {
    const ok = fields_({}).envelopes[0]!;
    const settled = summary({
      envelopes: [
        { ...ok, key: 'no', status: 'declined', declinedReason: 'Accepted another offer.' },
        { ...ok, key: 'gone', status: 'voided', voidedReason: 'Wrong salary <fixed>' },
        { ...ok, key: 'yes', status: 'completed' },
      ],
      accounts: [],
    });
    const md = await reportMarkdown(reportOf(settled));
    expect(md).toContain('## Declined and voided');
    expect(md).toContain('| `offers/no` | declined: Accepted another offer. |');
    expect(md).toContain('| `offers/gone` | voided: Wrong salary &lt;fixed&gt; |');
    expect(md).not.toContain('offers/yes` | ');
    const xml = await reportJunit(reportOf(settled));
    expect(xml).toContain('envelopeId e1; declined: Accepted another offer.');
    expect(xml).toContain('voided: Wrong salary &lt;fixed&gt;');
    const html = await reportHtml(reportOf(settled));
    expect(html).toContain('<small>declined: Accepted another offer.</small>');
    expect(html).toContain('<small>voided: Wrong salary &lt;fixed&gt;</small>');
  });

  it('a sync’s reports say they are a sync’s, and that it brought envelopes up to date rather than sent them', async () => {
    const ok = fields_({}).envelopes[0]!;
    const synced = summary({
      command: 'sync',
      envelopes: [
        { ...ok, adopted: true, status: 'completed' },
        { ...ok, key: 'two', adopted: true },
      ],
      accounts: [],
    });
    const report = reportOf(synced);
    expect(await reportMarkdown(report)).toMatch(/^# signrun sync succeeded/);
    expect(await reportJunit(report)).toContain('<testsuites name="signrun sync run-1"');
    expect(await reportHtml(report)).toContain('<h1>signrun sync <span');
    const full = await inMemory(report);
    expect(full.command).toBe('sync');
    expect(checkReport(full)).toEqual([]);
    const text = await consoleSummary(report, { outShown: 'out', colour: noColour });
    expect(text).toContain('2 of 2 envelope(s) brought up to date');
    expect(text).not.toContain('sent again');
    expect(await reportMarkdown(reportOf(summary()))).toMatch(/^# signrun run failed/);
  });

  it('junit.xml says what to do next for a failure, and names a step only when one had begun', async () => {
    const ok = fields_({}).envelopes[0]!;
    const drifted: EnvelopeResult = {
      ...ok,
      outcome: 'failed',
      error: { code: 'SR_ENVELOPE_DRIFT', message: 'offers/ok exists as envelope e1 with other content' },
    };
    const xml = await reportJunit(reportOf(summary({ envelopes: [drifted], accounts: [] })));
    expect(xml).toContain('<failure type="SR_ENVELOPE_DRIFT"');
    expect(xml).toContain('--replace-drifted');
    expect(xml).not.toContain('step: ?');
    const failedAtCreate = await reportJunit(reportOf(summary()));
    expect(failedAtCreate).toContain('step: create');
  });

  it('report.md and report.html point a failed row of a forEach at its CSV line, as the console and the annotations do', async () => {
    const ok = fields_({}).envelopes[0]!;
    const drifted: EnvelopeResult = {
      ...ok,
      outcome: 'failed',
      row: 21,
      rowSource: { file: '/repo/jobs/data/offers.csv', line: 22, column: 1 },
      error: { code: 'SR_ENVELOPE_DRIFT', message: 'offers/ok exists as envelope e1 with other content' },
    };
    const report = reportOf(summary({ envelopes: [drifted], accounts: [] }), '/repo');
    const row = (await reportMarkdown(report)).split('\n').find((l) => l.includes('SR_ENVELOPE_DRIFT'))!;
    expect(row).toContain('| jobs/data/offers.csv:22 |');
    const html = await reportHtml(report);
    const failedTable = html.slice(html.indexOf('SR_ENVELOPE_DRIFT') - 300, html.indexOf('SR_ENVELOPE_DRIFT'));
    expect(failedTable).toContain('<code>jobs/data/offers.csv:22</code>');
    expect(html).not.toContain('jobs/offers.yaml:12');
  });

  it('report.md keeps the code spans of a message as code: `<paths>` reads as typed, not as `&lt;paths&gt;`', async () => {
    const ok = fields_({}).envelopes[0]!;
    const drifted: EnvelopeResult = {
      ...ok,
      outcome: 'failed',
      error: {
        code: 'SR_ENVELOPE_DRIFT',
        message:
          'offers/ok exists with other content <&>: `npx signrun run <paths> --replace-drifted` voids it; `a | b` and a lone ` here',
      },
    };
    const md = await reportMarkdown(reportOf(summary({ envelopes: [drifted], accounts: [] })));
    const row = md.split('\n').find((l) => l.includes('SR_ENVELOPE_DRIFT'))!;
    // Markdown shows a code span's text literally: no entities inside one.
    expect(row).toContain('`npx signrun run <paths> --replace-drifted`');
    // Outside code spans, HTML stays escaped, and a lone backtick cannot open a span.
    expect(row).toContain('other content &lt;&amp;&gt;:');
    expect(row).toContain('`a \\| b` and a lone \\` here');
    expect(row.split(/(?<!\\)\|/).length).toBe(7); // still 5 cells
  });

  it('report.md tells who signs by email to be reminded and who signs embedded to get a fresh address (remind sends them nothing)', async () => {
    const ok = fields_({}).envelopes[0]!;
    const sent = (key: string, recipients: EnvelopeResult['recipients']): EnvelopeResult => ({
      ...ok,
      key,
      status: 'sent',
      recipients,
    });
    const embedded = sent('emb', [
      { recipientId: '1', clientUserId: 'c1', signing: 'ready', name: 'Ann', status: 'sent' },
    ]);
    const remote = sent('rem', [{ recipientId: '1', signing: 'remote', name: 'Bo', status: 'sent' }]);
    const stillToSign = async (envelopes: EnvelopeResult[]) =>
      (await reportMarkdown(reportOf(summary({ envelopes, accounts: [] }))))
        .split('\n')
        .filter((l) => l.startsWith('As of the last') || l.includes('| sent |'));

    const onlyEmbedded = await stillToSign([embedded]);
    expect(onlyEmbedded[0]).toContain('they sign in your application (embedded): `npx signrun sign-url');
    expect(onlyEmbedded[0]).not.toContain('remind');
    expect(onlyEmbedded[1]).toContain('| Ann (embedded) | sent |');
    const onlyRemote = await stillToSign([remote]);
    expect(onlyRemote[0]).toBe(
      'As of the last `npx signrun sync`. Not failures: `npx signrun remind` sends them the notification again.',
    );
    expect(onlyRemote[1]).toContain('| Bo | sent |');
    const both = (await stillToSign([embedded, remote]))[0];
    expect(both).toContain('`npx signrun remind` sends the notification again to those who sign by email');
    expect(both).toContain('for the embedded ones');
  });

  it('the console says an interrupted run that ended nothing finished nothing, not that it had nothing to do', async () => {
    const later = fields_({}).envelopes[2]!;
    expect(later.outcome).toBe('not-started');
    const head = async (interrupted: boolean, envelopes: EnvelopeResult[]) =>
      (
        await consoleSummary(reportOf(summary({ envelopes, accounts: [], interrupted })), {
          outShown: 'out',
          colour: noColour,
        })
      ).split('\n')[0];
    expect(await head(true, [later, { ...later, key: 'later-2' }])).toMatch(/^Interrupted in .*: nothing finished\.$/);
    expect(await head(false, [])).toMatch(/^Done in .*: nothing to do\.$/);
  });

  it('exit codes: 1 with a failure, 130 when interrupted, 0 otherwise', () => {
    expect(exitCodeOf(summary())).toBe(1);
    expect(exitCodeOf(summary({ interrupted: true }))).toBe(130);
    expect(exitCodeOf(summary({ envelopes: [], accounts: [] }))).toBe(0);
  });

  it('merging keeps the best outcome of an item seen twice and sums API use', async () => {
    const a = await inMemory(reportOf(summary()));
    const b = await inMemory(
      reportOf(
        summary({
          runId: 'run-2',
          envelopes: [{ ...fields_({}).envelopes[1]!, outcome: 'succeeded', error: undefined }] as EnvelopeResult[],
        }),
      ),
    );
    delete (b.envelopes[0] as { error?: unknown }).error;
    const merged = mergeReports([a, b], 'merged-1');
    expect(checkReport(merged)).toEqual([]);
    expect(merged.envelopes.find((e) => e.key === 'bad <&>')?.outcome).toBe('succeeded');
    expect(merged.api.calls).toBe(18);
    expect(merged.mergedFrom).toEqual(['run-1', 'run-2']);
    expect(merged.totals.envelopes.total).toBe(3);
  });

  it('the console summary says what failed, where, and what to do next', async () => {
    const text = await consoleSummary(reportOf(summary(), '/repo'), { outShown: 'out', colour: noColour });
    expect(text).toMatch(
      /^Finished with failures in 5\.0 s: 1 envelope sent, 1 failed; account\(s\): 1 created \(awaiting activation\)\./,
    );
    expect(text).toContain('jobs/offers.yaml:12:5 offers/bad <&> SR_HTTP_STATUS (create)');
    expect(text).toContain('1 item(s) not started');
    // What to do about the code, from the catalogue, once.
    const hint = errorCatalogue.SR_HTTP_STATUS.hint;
    expect(text).toContain(`  SR_HTTP_STATUS: ${hint}`);
    expect(text.split(hint).length).toBe(2);
    expect(text).toContain('run the same command again');
    expect(text).toContain('Outputs in out');
    const sandbox = await consoleSummary(
      reportOf(summary({ target: { rootUrl: 'http://127.0.0.1:1/restapi/v2', sandbox: true } })),
      { outShown: 'out', colour: noColour },
    );
    expect(sandbox).toContain('in-process sandbox stopped');
    expect(sandbox).not.toContain('sign-url out');
  });

  it('junit.xml keeps one suite per job, envelopes then accounts, when a merged report interleaves jobs', async () => {
    const envelope = (job: string, key: string, outcome: EnvelopeResult['outcome']): EnvelopeResult => ({
      job,
      key,
      source,
      outcome,
      recipients: [],
      files: [],
      apiCalls: 0,
      retries: 0,
    });
    const account = (job: string, key: string): AccountResult => ({
      job,
      key,
      source,
      state: 'present',
      outcome: 'up-to-date',
      files: [],
      apiCalls: 1,
      retries: 0,
    });
    const interleaved = [
      envelope('a', 'a1', 'succeeded'),
      envelope('b', 'b1', 'failed'),
      envelope('a', 'a2', 'not-started'),
      envelope('b', 'b2', 'succeeded'),
    ];
    const accounts = [account('c', 'c1'), account('a', 'x1')];
    const head = await inMemory(reportOf(summary({ envelopes: [], accounts: [] })));
    for (const envelopes of [interleaved, [...interleaved].sort((x, y) => x.job.localeCompare(y.job))]) {
      const xml = await reportJunit(
        reportSourceOf({ ...head, envelopes, accounts, totals: totalsOf({ envelopes, accounts }) }),
      );
      const suites = [
        ...xml.matchAll(/<testsuite name="(\w+)" tests="(\d+)" failures="(\d+)" errors="0" skipped="(\d+)"/g),
      ];
      expect(suites.map((m) => m.slice(1).join(' '))).toEqual(['a 3 0 1', 'b 2 1 0', 'c 1 0 0']);
      const cases = [...xml.matchAll(/<testcase classname="([\w.]+)" name="(\w+)"/g)].map((m) => `${m[1]}/${m[2]}`);
      expect(cases).toEqual([
        'a.envelopes/a1',
        'a.envelopes/a2',
        'a.accounts/x1',
        'b.envelopes/b1',
        'b.envelopes/b2',
        'c.accounts/c1',
      ]);
      expect(xml).toContain('<testsuites name="signrun run run-1" tests="6" failures="1" errors="0" skipped="1"');
    }
  });

  it('the console says how long the run took as people read it: ms under a second, minutes past two', async () => {
    const firstLine = async (durationMs: number) =>
      (await consoleSummary(reportOf(summary({ durationMs }), '/repo'), { outShown: 'out', colour: noColour })).split(
        '\n',
      )[0];
    expect(await firstLine(45)).toMatch(/^Finished with failures in 45 ms: /);
    expect(await firstLine(13_460)).toMatch(/^Finished with failures in 13\.5 s: /);
    expect(await firstLine(723_172)).toMatch(/^Finished with failures in 12 min 3 s: /);
  });

  it('report.md and the console list a capped number of items and count the rest', async () => {
    const base = fields_({}).envelopes;
    const many: EnvelopeResult[] = [];
    for (let i = 0; i < 230; i++) many.push({ ...base[1]!, key: `bad-${i}` });
    for (let i = 0; i < 70; i++) many.push({ ...base[0]!, key: `wait-${i}` });
    const report = reportOf(summary({ envelopes: many }), '/repo');
    const md = await reportMarkdown(report);
    expect(md.match(/^\| `offers\/bad-\d+` \|/gm)).toHaveLength(200);
    expect(md).toContain('…and 30 more (see report.json).');
    expect(md.match(/^- `offers\/wait-\d+`/gm)).toHaveLength(50);
    expect(md).toContain('- …and 20 more');
    expect(md).toContain('API calls: 9 (2 retries, 3 failed answers; 7.0 per envelope)');
    const text = await consoleSummary(report, {
      outShown: 'out',
      colour: noColour,
      maxFailures: 5,
    });
    expect(text.match(/✗/g)).toHaveLength(5);
    expect(text).toContain('…and 225 more in report.json');
    expect(text).toContain('70 signing address(es)');
  });
});

describe('report.md and what a service says (issue 14, item 10)', () => {
  it('shows a service error message as text: no raw HTML, no markdown link, one table cell', async () => {
    const hostile = summary({
      envelopes: [
        {
          job: 'offers',
          key: 'k',
          source,
          outcome: 'failed',
          recipients: [],
          files: [],
          apiCalls: 1,
          retries: 0,
          error: {
            code: 'SR_HTTP_STATUS',
            message:
              'POST /x answered 500 <html><body><img src=x onerror="alert(1)"><script>steal()</script></body></html> [sign here](https://evil.example/) \\[again](https://evil.example/) | extra cell\nnext line',
            step: 'create',
          },
        },
      ],
      accounts: [],
    });
    const md = await reportMarkdown(reportOf(hostile));
    expect(md).not.toMatch(/<(html|body|img|script)/i);
    expect(md).toContain('&lt;script&gt;');
    expect(md).not.toMatch(/[^\\]\]\(https:\/\/evil/);
    const row = md.split('\n').find((l) => l.includes('evil.example'))!;
    expect(row.split(/(?<!\\)\|/).length).toBe(7); // 5 cells between 6 unescaped pipes
  });
});
