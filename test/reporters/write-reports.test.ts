import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { OutputFolder } from '../../src/output/output-folder.js';
import { reportFiles } from '../../src/output/output-paths.js';
import type { ReportSource } from '../../src/reporters/report-json.js';
import { stoppedReport } from '../../src/reporters/stopped-report.js';
import { writeReports } from '../../src/reporters/write-reports.js';

const folders: string[] = [];
afterEach(() => {
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A report of two envelopes that stopped before sending (any report does: the writers read its envelopes). */
function twoEnvelopes(): ReportSource {
  const source = { file: '/repo/jobs/offers.yaml', line: 3, column: 5 };
  return stoppedReport({
    target: { rootUrl: 'https://demo.example.com/restapi', sandbox: false },
    startedAt: new Date('2026-11-29T06:00:00.000Z'),
    now: new Date('2026-11-29T06:00:01.000Z'),
    concurrency: 4,
    items: [
      { kind: 'envelope', job: 'offers', key: 'ada', source },
      { kind: 'envelope', job: 'offers', key: 'bob', source },
    ],
    error: { code: 'SR_AUTH_SERVER_UNREACHABLE', message: 'the service did not answer the login', step: 'login' },
  });
}

describe('writeReports', () => {
  it('writes the streamed reports and those made whole side by side, and every report whole', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'signrun-write-reports-'));
    folders.push(dir);
    const given = twoEnvelopes();
    // A barrier: the first reader of the envelopes waits until a second report reads them too. Written one
    // report after the other, report.json would wait for ever (the test times out).
    let readers = 0;
    let release!: () => void;
    const bothReading = new Promise<void>((resolve) => (release = resolve));
    const source: ReportSource = {
      ...given,
      envelopes: async function* () {
        readers += 1;
        if (readers === 2) release();
        await bothReading;
        yield* given.envelopes();
      },
    };
    const written = await writeReports(new OutputFolder(dir), source);
    expect(written.map((f) => f.path)).toEqual([...reportFiles]);
    expect(readdirSync(dir).sort()).toEqual([...reportFiles].sort());
    const json = JSON.parse(readFileSync(path.join(dir, 'report.json'), 'utf8')) as {
      envelopes: Array<{ key: string }>;
    };
    expect(json.envelopes.map((e) => e.key)).toEqual(['ada', 'bob']);
    expect(readFileSync(path.join(dir, 'junit.xml'), 'utf8')).toContain('bob');
    expect(readFileSync(path.join(dir, 'report.md'), 'utf8')).toContain('bob');
    expect(readFileSync(path.join(dir, 'report.html'), 'utf8')).toContain('bob');
  }, 20_000);
});
