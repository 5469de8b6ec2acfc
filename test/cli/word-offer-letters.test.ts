import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EnvelopeRecord, SigningRecord } from '../../src/output/records.js';
import type { RunningSandbox } from '../../src/sandbox/contract.js';
import { startSandbox } from '../../src/sandbox/index.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { signOverHttp } from '../signing/sign-over-http.js';
import { tool } from '../signing/pdf-tools.js';
import { readReport, sandboxEnv, tempDir } from './run-helpers.js';

// Issue 39: the Word offer-letter example (examples/word-offer-letters.yaml),
// 20 rows over one DOCX with DocuSign's merge fields, through the real CLI:
// validate offline, preview, run against the sandbox, sign one, sync it.
// Validation reads all 20 rows; the preview and the run take the first five
// (issue 38): each row's letter is made, checked, sent and counted by the
// same path, so rows 6 to 20 only repeated it (5 rows still tell the rows
// apart, keep the accented names, and hold W3005, the one signed).
const shortRows = 5;

const rows = (await readFile(path.join(repoRoot, 'examples/data/word-offers.csv'), 'utf8'))
  .trim()
  .split('\n')
  .slice(1, shortRows + 1)
  .map((line) => {
    const [candidateId, name, , position, salary] = line.split(',');
    return {
      candidateId: candidateId!,
      name: name!,
      position: position!,
      salary: Number(salary).toLocaleString('en-US'),
    };
  });

/** The example alone in a fresh folder, with `change` applied to its files. */
async function example(
  change: { csv?: (text: string) => string; job?: (text: string) => string } = {},
): Promise<string> {
  const dir = await tempDir('signrun-word-offers-');
  const examples = path.join(repoRoot, 'examples');
  await cp(path.join(examples, 'docs/word-offer-letter.docx'), path.join(dir, 'docs/word-offer-letter.docx'));
  await cp(path.join(examples, '.env'), path.join(dir, '.env'));
  const csv = await readFile(path.join(examples, 'data/word-offers.csv'), 'utf8');
  await cp(path.join(examples, 'data/word-offers.csv'), path.join(dir, 'data/word-offers.csv'));
  await writeFile(path.join(dir, 'data/word-offers.csv'), change.csv ? change.csv(csv) : csv);
  const job = await readFile(path.join(examples, 'word-offer-letters.yaml'), 'utf8');
  await writeFile(path.join(dir, 'word-offer-letters.yaml'), change.job ? change.job(job) : job);
  return dir;
}

/** The CSV's header and its first `shortRows` rows. */
const firstRows = (csv: string): string =>
  `${csv
    .split('\n')
    .slice(0, shortRows + 1)
    .join('\n')}\n`;

type Diagnostics = { diagnostics: Array<{ code: string; file: string; line: number; column: number }> };

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterAll(async () => {
  await sandbox?.close();
});

describe('the Word offer-letter example', () => {
  it('validates its 20 rows offline', async () => {
    const result = await runCli(['validate', 'examples/word-offer-letters.yaml']);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trim()).toBe('1 file, 1 job, 20 envelopes, 0 accounts: 0 errors, 0 warnings');
  });

  it('refuses an empty salary cell at the cell, and a field the letter lacks at its line', async () => {
    // Row 7 (line 8 of the CSV) loses its salary: the fifth column, after "Hugo Moreau,hugo.moreau@example.com,Support Specialist,".
    const emptyCell = await example({
      csv: (csv) => csv.replace(',Support Specialist,45000,', ',Support Specialist,,'),
    });
    const refused = await runCli(['validate', '.', '--format', 'json'], { cwd: emptyCell });
    expect(refused.code).toBe(2);
    const cell = ',Support Specialist,'.length + 'W3008,Hugo Moreau,hugo.moreau@example.com'.length + 1;
    expect((JSON.parse(refused.stdout) as Diagnostics).diagnostics).toContainEqual(
      expect.objectContaining({ code: 'SR_DOCGEN_FIELD_MISSING', file: 'data/word-offers.csv', line: 9, column: cell }),
    );
    const unknown = await example({
      job: (job) =>
        job.replace(
          '          Job_Title: ${row.position}\n',
          '          Job_Title: ${row.position}\n          Bonus_Percent: "10"\n',
        ),
    });
    const named = await runCli(['validate', '.', '--format', 'json'], { cwd: unknown });
    expect(named.code).toBe(2);
    expect((JSON.parse(named.stdout) as Diagnostics).diagnostics).toEqual([
      expect.objectContaining({
        code: 'SR_DOCGEN_FIELD_UNKNOWN',
        file: 'word-offer-letters.yaml',
        line: 29,
        column: 26,
      }),
    ]);
  });

  it("previews each row's letter with the row's name and salary", async () => {
    const dir = await example({ csv: firstRows });
    const result = await runCli(['preview', '.', '--out', 'pv'], { cwd: dir, timeoutMs: 120_000 });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`previewed ${shortRows} envelopes: 0 warnings`);
    for (const row of rows) {
      const pdf = path.join(dir, 'pv/word-offer-letters-2027', `word-offer-${row.candidateId}`, 'preview.pdf');
      const text = (await tool('pdftotext', ['-layout', pdf, '-'])).out;
      expect(text, row.candidateId).toContain(`Dear ${row.name},`);
      expect(text, row.candidateId).toContain(`Your annual salary is EUR ${row.salary}.`);
      expect(text).not.toContain('{{');
    }
  }, 150_000);

  it('runs its envelopes as the plan counts them; a signed one, synced, holds its salary and the signature', async () => {
    const dir = await example({ csv: firstRows });
    const out = path.join(dir, 'out');
    const env = sandboxEnv(sandbox);
    const plan = await runCli(['plan', '.', '--format', 'json'], { cwd: dir, env });
    expect(plan.code, plan.stderr).toBe(0);
    const planned = JSON.parse(plan.stdout) as { items: Array<{ apiCalls: number; steps?: string[] }> };
    const sent = await runCli(['run', '.', '--out', out], { cwd: dir, env, timeoutMs: 120_000 });
    expect(sent.code, sent.stderr + sent.stdout).toBe(0);
    const report = await readReport(out);
    expect(report.totals.envelopes).toMatchObject({ total: shortRows, succeeded: shortRows, failed: 0 });
    // DocuSign's reference path: a draft, its form fields read and set (GET and PUT docGenFormFields), then sent.
    expect(planned.items.map((i) => i.steps)).toEqual(
      Array.from({ length: shortRows }, () => ['draft', 'confirm', 'docgen', 'send', 'views']),
    );
    // The plan counts each envelope's calls as the run made them: draft, GET + PUT docGenFormFields, send, view.
    expect(planned.items.map((i) => i.apiCalls)).toEqual(report.envelopes.map((e) => e.apiCalls));
    expect(report.envelopes.map((e) => e.apiCalls)).toEqual(Array.from({ length: shortRows }, () => 5));
    expect(report.api.byOperation).toMatchObject({
      createEnvelope: shortRows,
      getDocGenFormFields: shortRows,
      updateDocGenFormFields: shortRows,
      sendDraft: shortRows,
    });

    const key = 'word-offer-W3005';
    const signing = JSON.parse(
      await readFile(path.join(out, 'word-offer-letters-2027', key, 'signing.json'), 'utf8'),
    ) as SigningRecord;
    expect(await signOverHttp(signing.recipients[0]!.url!, 'Elena Rossi')).toBe('signing_complete');
    const synced = await runCli(['sync', '.', '--out', out], { cwd: dir, env });
    expect(synced.code, synced.stderr + synced.stdout).toBe(0);
    const record = JSON.parse(
      await readFile(path.join(out, 'word-offer-letters-2027', key, 'envelope.json'), 'utf8'),
    ) as EnvelopeRecord;
    expect(record.status).toBe('completed');
    const pdf = record.files.find((f) => f.path.includes('/documents/'))!;
    const text = (await tool('pdftotext', ['-layout', path.join(out, pdf.path), '-'])).out;
    expect(text).toContain('Dear Elena Rossi,');
    expect(text).toContain('Your annual salary is EUR 79,000.');
    // The candidate's signature, stamped on the generated letter: the sandbox's caption and the adopted name,
    // a second time beside the letter's own "Dear Elena Rossi,".
    expect(text).toContain('Signed by signrun sandbox');
    expect(text.split('Elena Rossi').length - 1).toBe(2);
    expect(text).not.toContain('{{');
  }, 200_000);
});
