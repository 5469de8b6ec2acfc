import { createHash } from 'node:crypto';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import type { Diagnostic, LoadResult, ResolvedJob } from '../../src/jobs/model.js';
import { envelopeDefinitionOf } from '../../src/runner/envelopes/envelope-definition.js';
import { minimalDocx } from '../helpers/minimal-docx.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';

// Issue 20, part 3, the job side: documents may be DOCX, HTML or TXT; validate
// reads the PDF rendition the service makes of them (pages, anchors), and the
// runner sends the file as it is, with its extension.

const work = join(repoRoot, `test/.tmp/converted-documents-${process.pid}`);

const offerDocx = minimalDocx([
  { text: 'Offer letter', heading: 1 },
  { text: 'We offer you the position.' },
  { text: 'Signature of the employee: /sig/' },
]);
const termsHtml = Buffer.from(
  '<h1>Terms</h1><p>Keep secrets.</p><p>Initials: <i>/ini/</i></p><script>/nowhere/</script>',
);

function folder(name: string, files: Record<string, string | Buffer>): string {
  const dir = join(work, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  for (const [path, content] of Object.entries(files)) writeFileSync(join(dir, path), content);
  return dir;
}

function jobs(result: LoadResult): ResolvedJob[] {
  if (!result.ok) throw new Error(JSON.stringify(result.errors, null, 1));
  return result.jobs;
}

function errors(result: LoadResult): Array<Pick<Diagnostic, 'code' | 'line' | 'column' | 'field'>> {
  if (result.ok) throw new Error('expected errors');
  return result.errors.map(({ code, line, column, field }) => ({ code, line, column, field }));
}

/** A job of one envelope with offer.docx and terms.html, whose signer has `tabs` (YAML under `tabs:`). */
function job(tabs: string, documents = '[{ file: offer.docx }, { file: terms.html }]'): string {
  return `version: 1
job: j
defaults: { emailSubject: Sign }
envelopes:
  - key: e1
    documents: ${documents}
    recipients:
      - name: Jean
        email: jean@example.com
        tabs:
${tabs}`;
}

const load = (name: string, files: Record<string, string | Buffer>) => {
  const dir = folder(name, { 'offer.docx': offerDocx, 'terms.html': termsHtml, ...files });
  return loadJobs([dir], { cwd: dir, env: {} });
};

beforeAll(() => mkdirSync(work, { recursive: true }));
afterAll(() => rmSync(work, { recursive: true, force: true }));

describe('documents DocuSign converts, in job files', () => {
  it('finds anchors in a DOCX and an HTML document, and the runner sends the files as they are with their extension', async () => {
    const [resolved] = jobs(
      await load('found', {
        'job.yaml': job(`          signHereTabs: [{ anchorString: "/sig/" }]
          initialHereTabs: [{ anchorString: "/ini/" }]
`),
      }),
    );
    const envelope = resolved!.envelopes[0]!;
    expect(envelope.documents.map((d) => [d.name, d.fileExtension, d.pageCount])).toEqual([
      ['offer.docx', 'docx', 1],
      ['terms.html', 'html', 1],
    ]);
    // The digest is of the file, not of its rendition.
    expect(envelope.documents[0]!.sha256).toBe(createHash('sha256').update(offerDocx).digest('hex'));
    const definition = await envelopeDefinitionOf(envelope);
    expect(definition.documents!.map((d) => [d.name, d.fileExtension])).toEqual([
      ['offer.docx', 'docx'],
      ['terms.html', 'html'],
    ]);
    expect(Buffer.from(definition.documents![0]!.documentBase64, 'base64').equals(offerDocx)).toBe(true);
  });

  it('refuses an anchor no rendition holds (a script is not text), and a page the rendition does not have', async () => {
    expect(
      errors(
        await load('missing', {
          'job.yaml': job(`          signHereTabs:
            - { anchorString: "/nowhere/" }
            - { pageNumber: 2, xPosition: 10, yPosition: 10 }
`),
        }),
      ),
    ).toEqual([
      {
        code: 'SR_ANCHOR_NOT_FOUND',
        line: 12,
        column: 31,
        field: 'envelopes[0].recipients[0].tabs.signHereTabs[0].anchorString',
      },
      {
        code: 'SR_TAB_PAGE_OUT_OF_RANGE',
        line: 13,
        column: 29,
        field: 'envelopes[0].recipients[0].tabs.signHereTabs[1].pageNumber',
      },
    ]);
  });

  it('reads a TXT document, refuses a DOCX that is not one (SR_DOC_NOT_CONVERTIBLE) and a kind it does not convert (SR_DOC_NOT_PDF)', async () => {
    expect(
      (
        await load('txt', {
          'notes.txt': 'Notes\n\nSigned: /sig/\n',
          'job.yaml': job('          signHereTabs: [{ anchorString: "Signed:" }]\n', '[{ file: notes.txt }]'),
        })
      ).ok,
    ).toBe(true);
    expect(
      errors(
        await load('unreadable', {
          'broken.docx': 'not a zip',
          'sheet.xlsx': 'not a pdf either',
          'job.yaml': job(
            '          - { pageNumber: 1, xPosition: 10, yPosition: 10 }\n',
            '[{ file: broken.docx }, { file: sheet.xlsx }]',
          ),
        }),
      ).map((e) => [e.code, e.field]),
    ).toEqual([
      ['SR_DOC_NOT_CONVERTIBLE', 'envelopes[0].documents[0].file'],
      ['SR_DOC_NOT_PDF', 'envelopes[0].documents[1].file'],
    ]);
  });

  it('signrun validate: exit 0 when the anchor is in the HTML, exit 2 with SR_ANCHOR_NOT_FOUND when not', async () => {
    const ok = folder('cli-ok', {
      'terms.html': termsHtml,
      'job.yaml': job('          initialHereTabs: [{ anchorString: "/ini/" }]\n', '[{ file: terms.html }]'),
    });
    const found = await runCli(['validate', '.', '--format', 'json'], { cwd: ok });
    expect(found.code, found.stdout + found.stderr).toBe(0);
    const bad = folder('cli-bad', {
      'offer.docx': offerDocx,
      'job.yaml': job('          initialHereTabs: [{ anchorString: "/ini/" }]\n', '[{ file: offer.docx }]'),
    });
    const missing = await runCli(['validate', '.', '--format', 'json'], { cwd: bad });
    expect(missing.code).toBe(2);
    const out = JSON.parse(missing.stdout) as { diagnostics: Array<{ code: string; line: number }> };
    expect(out.diagnostics.map((d) => [d.code, d.line])).toEqual([['SR_ANCHOR_NOT_FOUND', 11]]);
  });
});
