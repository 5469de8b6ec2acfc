import { describe, expect, it } from 'vitest';
import { formatDiagnostics } from '../../src/cli/format-diagnostics.js';
import type { Diagnostic } from '../../src/jobs/model.js';

const error: Diagnostic = {
  code: 'SR_DOC_NOT_PDF',
  severity: 'error',
  message: 'docs/x.pdf is not a PDF: it does not start with %PDF-',
  file: 'examples/x.yaml',
  line: 12,
  column: 5,
  field: 'envelopes[0].documents[0].file',
  excerpt: '      - { file: docs/x.pdf }',
  hint: 'Check that the file is a PDF.',
};
const warning: Diagnostic = {
  code: 'SR_FOREACH_EMPTY',
  severity: 'warning',
  message: 'no rows, 100%',
  file: 'a,b.yaml',
  line: 3,
  column: 1,
};
const summary = { files: 2, jobs: 2, envelopes: 10_000, accounts: 1 };

describe('formatDiagnostics', () => {
  it('text: file:line:col CODE message, the excerpt with a caret under the column, the hint, the summary', () => {
    const out = formatDiagnostics([error], 'text', { colour: false, summary });
    const lines = out.split('\n');
    expect(lines[0]).toBe('examples/x.yaml:12:5 SR_DOC_NOT_PDF docs/x.pdf is not a PDF: it does not start with %PDF-');
    expect(lines[1]).toBe('12 |       - { file: docs/x.pdf }');
    expect(lines[2]!.indexOf('^') - lines[2]!.indexOf('|') - 2).toBe(4);
    expect(lines[3]).toBe('  hint: Check that the file is a PDF.');
    expect(out).toContain('2 files, 2 jobs, 10,000 envelopes, 1 account: 1 error, 0 warnings');
    expect(out).not.toContain('\u001b[');
  });

  it('text: colour only when asked, and a cap with a pointer to json', () => {
    expect(formatDiagnostics([error], 'text', { colour: true })).toContain('\u001b[');
    const many = Array.from({ length: 5 }, (_, i) => ({ ...error, line: i + 1 }));
    const out = formatDiagnostics(many, 'text', { colour: false, maxText: 2 });
    expect(out.match(/SR_DOC_NOT_PDF/g)).toHaveLength(2);
    expect(out).toContain('3 more');
  });

  it('json: the same fields as data, with the summary counts', () => {
    const parsed = JSON.parse(formatDiagnostics([error, warning], 'json', { colour: true, summary })) as Record<
      string,
      unknown
    >;
    expect(parsed).toEqual({
      ok: false,
      summary: { ...summary, errors: 1, warnings: 1 },
      diagnostics: [error, warning],
    });
    expect((JSON.parse(formatDiagnostics([warning], 'json', { colour: false })) as { ok: boolean }).ok).toBe(true);
  });

  it('github: workflow commands with escaped properties and data', () => {
    const out = formatDiagnostics([error, warning], 'github', { colour: false, summary });
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toBe(
      '::error file=examples/x.yaml,line=12,col=5,title=SR_DOC_NOT_PDF::docs/x.pdf is not a PDF: it does not start with %25PDF-%0ACheck that the file is a PDF.',
    );
    expect(lines[1]).toBe('::warning file=a%2Cb.yaml,line=3,col=1,title=SR_FOREACH_EMPTY::no rows, 100%25');
    expect(lines[2]).toContain('1 error, 1 warning');
  });
});
