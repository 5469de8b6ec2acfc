import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { runCli } from '../helpers/run-cli.js';
import { fanOutJob, sandboxEnv } from '../cli/run-helpers.js';

// Issue 26: two rows of a 20-row campaign are voided by editing their CSV
// cells (`status: ${row.status}`, `voidedReason: ${row.reason}`); the other
// eighteen are left alone, and a cell that is no status is refused at the cell.

let sandbox: RunningSandbox;
const voided: string[] = [];
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
  sandbox.app.sandbox.events.on('event', (e) => {
    if (e.type === 'envelope-voided') voided.push(e.envelopeId);
  });
});
afterAll(async () => sandbox?.close());

describe('per-row status from the CSV', () => {
  it('voids exactly the rows whose cell says voided, with their reason', async () => {
    const dir = await fanOutJob(20, 'campaign');
    const csv = path.join(dir, 'data/people.csv');
    const job = path.join(dir, 'fan-out.yaml');
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    // A status and a reason column, empty: every row is sent.
    const rows = (await readFile(csv, 'utf8')).trim().split('\n');
    const withCells = (cells: (i: number) => [string, string]) =>
      `${[`${rows[0]},status,reason`, ...rows.slice(1).map((r, i) => `${r},${cells(i + 1).join(',')}`)].join('\n')}\n`;
    await writeFile(
      csv,
      withCells(() => ['', '']),
    );
    await writeFile(
      job,
      (await readFile(job, 'utf8')).replace(
        '    forEach: { csv: data/people.csv }\n',
        '    forEach: { csv: data/people.csv }\n    status: ${row.status}\n    voidedReason: ${row.reason}\n',
      ),
    );
    const sent = await runCli(['run', '.', '--out', out], { cwd: dir, env });
    expect(sent.code, sent.stderr).toBe(0);
    expect(voided).toEqual([]);

    // A cell that is no status: refused at that cell, nothing voided.
    await writeFile(
      csv,
      withCells((i) => (i === 4 ? ['void', 'Sent twice.'] : ['', ''])),
    );
    const refused = await runCli(['run', '.', '--out', out], { cwd: dir, env });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/data\/people\.csv:5:\d+ SR_SCHEMA_ENUM/);
    expect(voided).toEqual([]);

    // Rows 4 and 11 are voided by their cells.
    await writeFile(
      csv,
      withCells((i) => (i === 4 ? ['voided', 'Sent twice.'] : i === 11 ? ['voided', 'Offer withdrawn.'] : ['', ''])),
    );
    const voiding = await runCli(['run', '.', '--out', out], { cwd: dir, env });
    expect(voiding.code, voiding.stderr).toBe(0);
    const record = async (key: string) =>
      JSON.parse(await readFile(path.join(out, 'campaign', key, 'envelope.json'), 'utf8')) as EnvelopeRecord;
    const four = await record('e-E10004');
    const eleven = await record('e-E10011');
    expect(voided.sort()).toEqual([four.envelopeId, eleven.envelopeId].sort());
    expect([four.status, four.voidedReason]).toEqual(['voided', 'Sent twice.']);
    expect([eleven.status, eleven.voidedReason]).toEqual(['voided', 'Offer withdrawn.']);
    expect((await record('e-E10005')).status).toBe('sent');

    // Once: a run again voids nothing more.
    const again = await runCli(['run', '.', '--out', out], { cwd: dir, env });
    expect(again.code, again.stderr).toBe(0);
    expect(voided).toHaveLength(2);
  });
});
