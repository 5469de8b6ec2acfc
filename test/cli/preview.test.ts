import { cpSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../src/sandbox/index.js';
import { sandboxEnv } from './run-helpers.js';
import { repoRoot, runCli } from '../helpers/run-cli.js';
import { tool } from '../signing/pdf-tools.js';
import { popplerWords } from '../pdf/poppler.js';

/** The examples in a fresh folder (the preview writes beside them). */
function examples(): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-preview-cli-'));
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
  return dir;
}

/** Width and height of a PNG, from its IHDR (and a check that it is one). */
function pngSize(path: string): { width: number; height: number } {
  const bytes = readFileSync(path);
  expect(bytes.subarray(0, 8)).toEqual(Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]));
  expect(bytes.subarray(12, 16).toString('latin1')).toBe('IHDR');
  return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
}

/**
 * The example's CSV cut to its first rows: each row is drawn (a PDF and two
 * PNGs), and what holds for 5 rows holds for the example's 20 (issue 38; the
 * drawing's speed at scale is bench/preview's).
 */
const offersCsv = readFileSync(join(repoRoot, 'examples/data/offers.csv'), 'utf8').trim().split('\n').slice(0, 6);
const rows = offersCsv.slice(1).map((line) => {
  const [candidateId, name, , position, salary] = line.split(',');
  return { candidateId: candidateId!, name: name!, position: position!, salary: salary! };
});

describe('signrun preview (the offer-letter example)', () => {
  let dir = '';
  let result: Awaited<ReturnType<typeof runCli>>;
  beforeAll(async () => {
    dir = examples();
    writeFileSync(join(dir, 'data/offers.csv'), `${offersCsv.join('\n')}\n`);
    result = await runCli(['preview', 'offer-letters.yaml', '--out', 'pv'], { cwd: dir });
  });

  it('exits 0 without warnings and writes a PDF and a PNG per page for every row, and the contact sheet', () => {
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain(`previewed ${rows.length} envelopes: 0 warnings`);
    for (const row of rows) {
      const folder = join(dir, 'pv/offer-letters-2027', `offer-${row.candidateId}`);
      for (const file of ['preview.pdf', 'preview-1-1.png', 'preview-1-2.png'])
        expect(existsSync(join(folder, file)), `${row.candidateId}/${file}`).toBe(true);
    }
    const sheet = readFileSync(join(dir, 'pv/preview.html'), 'utf8');
    for (const row of rows) expect(sheet).toContain(`offer-${row.candidateId}`);
    // Every image is a relative link to a file of the output folder, with a description.
    const images = [...sheet.matchAll(/<img src="([^"]+)" alt="([^"]+)"/g)];
    expect(images).toHaveLength(rows.length);
    for (const [, src, alt] of images) {
      expect(existsSync(join(dir, 'pv', decodeURIComponent(src!)))).toBe(true);
      expect(alt).toMatch(/^First page of offer-letters-2027 \/ offer-C\d+/);
    }
    expect(sheet).toMatch(/<h1>Preview of \d+ envelopes<\/h1>/);
    expect(sheet).toContain('Recipient 1: blue');
  });

  it("shows each row's salary at its anchor in preview.pdf (read by poppler)", async () => {
    for (const row of rows) {
      const pages = await popplerWords(join(dir, 'pv/offer-letters-2027', `offer-${row.candidateId}`, 'preview.pdf'));
      const words = pages[0]!.words;
      const anchor = words.find((w) => w.word === 'Annual')!;
      const salary = words.filter((w) => w.word === row.salary);
      expect(salary, row.candidateId).toHaveLength(1);
      // anchorXOffset 150, anchorYOffset -3 (job file), the value 3 pt inside its box, on the anchor's line.
      expect(salary[0]!.xMin - anchor.xMin).toBeGreaterThan(150);
      expect(salary[0]!.xMin - anchor.xMin).toBeLessThan(156);
      expect(Math.abs(salary[0]!.yMin - anchor.yMin)).toBeLessThan(6);
      expect(words.some((w) => w.word === row.position.split(' ')[0])).toBe(true);
    }
  });

  it('renders each page as a PNG of the page size (a pixel per point)', async () => {
    const folder = join(dir, 'pv/offer-letters-2027', `offer-${rows[0]!.candidateId}`);
    const info = (await tool('pdfinfo', [join(folder, 'preview.pdf')])).out;
    const [, w, h] = /Page size:\s+([\d.]+) x ([\d.]+)/.exec(info)!;
    for (const page of [1, 2])
      expect(pngSize(join(folder, `preview-1-${page}.png`))).toEqual({
        width: Math.round(Number(w)),
        height: Math.round(Number(h)),
      });
  });
});

/** A job whose second row's name is too long for its box, and whose two tabs overlap. */
function warnedJob(): string {
  const dir = examples();
  writeFileSync(
    join(dir, 'people.csv'),
    'id,name\n1,Ann Lee\n2,Maximiliana Wolfeschlegelsteinhausenbergerdorff-Montgomery\n',
  );
  writeFileSync(
    join(dir, 'warned.yaml'),
    `version: 1
job: warned
defaults:
  emailSubject: Hello
envelopes:
  - key: p-\${row.id}
    forEach: { csv: people.csv }
    documents:
      - { name: offer.pdf, file: docs/offer-letter-form.pdf }
    recipients:
      - name: \${row.name}
        email: p\${row.id}@example.com
        tabs:
          textTabs:
            - { tabLabel: Name, value: "\${row.name}", anchorString: "Candidate name:", anchorXOffset: 150, anchorYOffset: -3, width: 120 }
          signHereTabs:
            - { pageNumber: 2, xPosition: 300, yPosition: 600 }
            - { pageNumber: 2, xPosition: 350, yPosition: 620 }
`,
  );
  return dir;
}

describe('signrun preview warnings', () => {
  it('a value too long for its box and two overlapping tabs: at the row and the tab’s line, exit 1', async () => {
    const dir = warnedJob();
    const result = await runCli(['preview', 'warned.yaml', '--out', 'pv'], { cwd: dir });
    expect(result.code, result.stderr).toBe(1);
    const lines = result.stdout.split('\n');
    const overflow = lines.filter((l) => l.includes('SR_PREVIEW_VALUE_OVERFLOW'));
    expect(overflow).toHaveLength(1);
    // Line 15 of warned.yaml: the text tab; only row 2's name is too long.
    expect(overflow[0]).toMatch(/^warned\.yaml:15:\d+ SR_PREVIEW_VALUE_OVERFLOW warning: row 2 \(p-2\)/);
    const overlap = lines.filter((l) => l.includes('SR_PREVIEW_TABS_OVERLAP'));
    // Both rows, at the second sign-here tab’s line (18).
    expect(overlap).toHaveLength(2);
    expect(overlap[0]).toMatch(/^warned\.yaml:18:\d+ SR_PREVIEW_TABS_OVERLAP warning: row 1 \(p-1\)/);
    expect(overlap[1]).toMatch(/row 2 \(p-2\)/);
    expect(readFileSync(join(dir, 'pv/preview.html'), 'utf8')).toContain('SR_PREVIEW_VALUE_OVERFLOW');
  });

  it('--warnings-ok exits 0 with the same warnings; --format github annotates the lines', async () => {
    const dir = warnedJob();
    const ok = await runCli(['preview', 'warned.yaml', '--out', 'pv', '--warnings-ok'], {
      cwd: dir,
    });
    expect(ok.code, ok.stderr).toBe(0);
    expect(ok.stdout).toContain('SR_PREVIEW_VALUE_OVERFLOW');
    const github = await runCli(['preview', 'warned.yaml', '--out', 'pv', '--format', 'github'], {
      cwd: dir,
    });
    expect(github.code).toBe(1);
    expect(github.stdout).toMatch(
      /^::warning file=warned\.yaml,line=15,col=\d+,title=SR_PREVIEW_VALUE_OVERFLOW::row 2/m,
    );
    expect(github.stdout).toMatch(/^::warning file=warned\.yaml,line=18,col=\d+,title=SR_PREVIEW_TABS_OVERLAP::/m);
  });

  it('skips a stored-template envelope with a note, and exits 0', async () => {
    const dir = examples();
    const result = await runCli(['preview', 'template-contract.yaml', '--out', 'pv'], { cwd: dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toContain('built from the stored template 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01');
    expect(readFileSync(join(dir, 'pv/preview.html'), 'utf8')).toContain('the preview reads it once');
  });

  it('previews an envelope from a template of its file as DocuSign makes it: the role filler’s value in the template’s tab, a warning at the template’s line', async () => {
    const dir = examples();
    writeFileSync(
      join(dir, 'nda.yaml'),
      `version: 1
job: nda
templates:
  - key: nda
    name: NDA
    documents: [{ name: offer.pdf, file: docs/offer-letter-form.pdf }]
    recipients:
      signers:
        - roleName: candidate
          tabs:
            textTabs:
              - { tabLabel: Name, anchorString: "Candidate name:", anchorXOffset: 150, anchorYOffset: -3, width: 60 }
            signHereTabs: [{ pageNumber: 2, xPosition: 300, yPosition: 600 }]
envelopes:
  - key: nda-\${row.id}
    forEach: { items: [{ id: 1, name: Ann Lee }, { id: 2, name: Maximiliane Wolkenstein-Trautmannsdorff }] }
    emailSubject: NDA
    template: nda
    templateRoles:
      - roleName: candidate
        name: \${row.name}
        email: a\${row.id}@example.com
        tabs: { textTabs: [{ tabLabel: Name, value: "\${row.name}" }] }
`,
    );
    const result = await runCli(['preview', 'nda.yaml', '--out', 'pv'], { cwd: dir });
    // Row 2's name is too long for the template's 60-point box: warned at the template tab's line (12).
    expect(result.code, result.stderr).toBe(1);
    const overflow = result.stdout.split('\n').filter((l) => l.includes('SR_PREVIEW_VALUE_OVERFLOW'));
    expect(overflow).toHaveLength(1);
    expect(overflow[0]).toMatch(/^nda\.yaml:12:\d+ SR_PREVIEW_VALUE_OVERFLOW warning: row 2 \(nda-2\)/);
    // Row 1's value is drawn at the template's anchor, on the template's document.
    const pages = await popplerWords(join(dir, 'pv/nda/nda-1/preview.pdf'));
    expect(pages).toHaveLength(2);
    const words = pages[0]!.words.map((w) => w.word);
    expect(words).toContain('Lee');
    expect(existsSync(join(dir, 'pv/nda/nda-1/preview-1-2.png'))).toBe(true);
  });

  it('report.html links each envelope to its preview when one exists (preview/ beside the output folder)', async () => {
    const dir = examples();
    const previewed = await runCli(['preview', 'hr-renewals.yaml'], { cwd: dir });
    expect(previewed.code, previewed.stderr).toBe(0);
    const run = await runCli(['run', 'hr-renewals.yaml', 'embedded-signing.yaml', '--out', 'out'], {
      cwd: dir,
    });
    expect(run.code, run.stderr).toBe(0);
    const html = readFileSync(join(dir, 'out/report.html'), 'utf8');
    const links = [...html.matchAll(/<a href="([^"]+)"[^>]*>preview<\/a>/g)].map((m) => m[1]!);
    // The 20 renewals were previewed; the embedded-signing envelope was not, and has no link.
    expect(links).toHaveLength(20);
    for (const href of links) expect(existsSync(join(dir, 'out', decodeURIComponent(href)))).toBe(true);
    expect(links[0]).toBe('../preview/contract-renewals-2026-q4/renewal-E1001/preview.pdf');
  });

  it('draws a stored-template envelope after one read of the template, when a service is configured (said so)', async () => {
    const dir = examples();
    const sandbox = await startSandbox({ port: 0, quiet: true });
    try {
      const result = await runCli(['preview', 'template-contract.yaml', '--out', 'pv'], {
        cwd: dir,
        env: sandboxEnv(sandbox),
      });
      expect(result.code, result.stderr).toBe(0);
      expect(result.stderr).toMatch(/read 1 stored template\(s\) from the account .*\(\d+ API call\(s\)\)/);
      expect(result.stderr).not.toContain('not previewed');
      const folder = join(dir, 'pv/employment-contract-2026/contract-lucia-moreno');
      expect(existsSync(join(folder, 'preview.pdf'))).toBe(true);
      const words = (await popplerWords(join(folder, 'preview.pdf')))[0]!.words.map((w) => w.word);
      // The seed template's document, with its two roles' signature boxes drawn on it.
      expect(words).toContain('Employment');
      expect(words.filter((w) => w === 'signHere')).toHaveLength(2);
    } finally {
      await sandbox.close();
    }
  });

  it('draws an envelope of several templates (one of the file, one stored) and an added PDF, numbered as the service numbers them', async () => {
    const dir = examples();
    writeFileSync(
      join(dir, 'combo.yaml'),
      `version: 1
job: combo
templates:
  - key: nda
    name: NDA
    documents: [{ name: nda.pdf, file: docs/offer-letter.pdf }]
    recipients:
      signers:
        - roleName: employee
          tabs:
            textTabs: [{ tabLabel: company, pageNumber: 1, xPosition: 100, yPosition: 500 }]
envelopes:
  - key: onboarding
    emailSubject: Onboarding
    templates: [nda, 3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01]
    documents: [{ name: handbook.pdf, file: docs/company-handbook.pdf }]
    templateRoles:
      - roleName: employee
        name: Ann Acme
        email: ann@example.com
        tabs:
          textTabs: [{ tabLabel: company, value: ACME }]
          signHereTabs: [{ documentId: 1, pageNumber: 1, xPosition: 300, yPosition: 600 }]
      - { roleName: employer, name: Thomas Keller, email: thomas@example.com }
`,
    );
    const sandbox = await startSandbox({ port: 0, quiet: true });
    try {
      const result = await runCli(['preview', 'combo.yaml', '--out', 'pv'], {
        cwd: dir,
        env: sandboxEnv(sandbox),
      });
      expect(result.code, result.stderr).toBe(0);
      const folder = join(dir, 'pv/combo/onboarding');
      // The file template's two pages, the stored template's one, the added handbook: documents 1, 2, 3.
      for (const file of ['preview-1-1.png', 'preview-1-2.png', 'preview-2-1.png', 'preview-3-1.png'])
        expect(existsSync(join(folder, file)), file).toBe(true);
      const pages = await popplerWords(join(folder, 'preview.pdf'));
      expect(pages.map((p) => p.words.some((w) => w.word === 'ACME'))).toEqual([true, false, false, false]);
      // Ann's own tab, written on the added document 1, is on the envelope's document 3.
      expect(pages[3]!.words.map((w) => w.word)).toContain('signHere');
      expect(pages[3]!.words.map((w) => w.word)).toContain('handbook');
    } finally {
      await sandbox.close();
    }
  });
});
