import { copyFileSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { repoRoot, runCli } from '../helpers/run-cli.js';

/**
 * Hundreds of per-row PDFs are read on two threads (PdfFactsReader.prefetch):
 * facts read by the worker and by the main thread must both reach the checks.
 * Two rows, one in each half, name a 1-page PDF under a tab on page 2.
 */
describe('signrun validate with one PDF per row', () => {
  it('checks every per-row PDF, whichever thread read it', async () => {
    const dir = join(repoRoot, `test/.tmp/validate-per-row-${process.pid}`);
    rmSync(dir, { recursive: true, force: true });
    mkdirSync(join(dir, 'letters'), { recursive: true });
    const rows = 400;
    const onePage = new Set([10, 390]);
    const lines = ['id,email'];
    for (let i = 1; i <= rows; i++) {
      lines.push(`${i},p${i}@example.com`);
      const source = onePage.has(i)
        ? 'examples/docs/company-handbook.pdf'
        : i % 2
          ? 'examples/docs/offer-letter.pdf'
          : 'examples/docs/renewal-terms.pdf';
      copyFileSync(join(repoRoot, source), join(dir, 'letters', `${i}.pdf`));
    }
    writeFileSync(join(dir, 'rows.csv'), `${lines.join('\n')}\n`);
    writeFileSync(
      join(dir, 'job.yaml'),
      'version: 1\njob: per-row\ndefaults: { emailSubject: Sign }\nenvelopes:\n  - key: l-${row.id}\n    forEach: { csv: rows.csv }\n    documents: [{ file: "letters/${row.id}.pdf" }]\n    recipients: [{ name: P, email: "${row.email}", tabs: [{ pageNumber: 2, xPosition: 10, yPosition: 10 }] }]\n',
    );
    const result = await runCli(['validate', '.', '--format', 'json'], { cwd: dir });
    expect(result.code).toBe(2);
    const out = JSON.parse(result.stdout) as {
      summary: { envelopes: number };
      diagnostics: Array<{ code: string; file: string; line: number }>;
    };
    // One diagnostic per failing row: the message names the row's own PDF.
    expect(out.diagnostics.map((d) => [d.code, d.file, d.line])).toEqual([
      ['SR_TAB_PAGE_OUT_OF_RANGE', 'job.yaml', 8],
      ['SR_TAB_PAGE_OUT_OF_RANGE', 'job.yaml', 8],
    ]);
    expect(out.diagnostics.map((d) => (d as unknown as { message: string }).message).join('\n')).toMatch(
      /letters\/10\.pdf[^\n]*\n[^\n]*letters\/390\.pdf/,
    );
    expect(out.summary.envelopes).toBe(rows - 2);
    rmSync(dir, { recursive: true, force: true });
  });
});
