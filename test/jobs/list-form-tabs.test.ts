import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { repoRoot } from '../helpers/run-cli.js';

// A list of tabs is signrun's shorthand for sign-here tabs placed by
// position. A user who writes an anchor, a label or a kind there meant the
// object form (tabs: { signHereTabs: […], textTabs: […] }): said so, and the
// positions such a tab lacks are not reported on top (they were three
// "needs the field" errors, and "anchorString" was called a field signrun
// does not take, which it does, in the object form).

const work = mkdtempSync(join(tmpdir(), 'signrun-list-form-tabs-'));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function errorsOf(tabs: string) {
  writeFileSync(join(work, 'offer.pdf'), readFileSync(join(repoRoot, 'examples/docs/offer-letter.pdf')));
  writeFileSync(
    join(work, 'job.yaml'),
    `version: 1\njob: j\ndefaults: { emailSubject: Sign }\nenvelopes:\n  - key: a\n    documents: [{ file: offer.pdf }]\n    recipients:\n      - { name: Ann, email: ann@example.com, tabs: ${tabs} }\n`,
  );
  const result = await loadJobs([work], { cwd: work, env: {} });
  if (result.ok) throw new Error('expected errors');
  return result.errors.map((e) => ({ code: e.code, message: e.message, hint: e.hint, line: e.line }));
}

describe('a list of tabs with a field of the object form', () => {
  it('says the field belongs to the object form, with an example, and nothing about positions', async () => {
    const errors = await errorsOf('[{ anchorString: "Signature:", anchorXOffset: 80 }]');
    expect(errors.map((e) => e.code)).toEqual(['SR_SCHEMA_UNKNOWN_PROPERTY', 'SR_SCHEMA_UNKNOWN_PROPERTY']);
    expect(errors[0]!.message).toContain('"anchorString"');
    expect(errors[0]!.message).toContain("a list of tabs is signrun's shorthand for sign-here tabs placed by position");
    expect(errors[0]!.message).toContain('taken by the object form of tabs');
    expect(errors[0]!.message).not.toContain('does not take');
    expect(errors[0]!.hint).toContain('tabs: { signHereTabs: [{ anchorString: … }]');
    expect(errors[0]!.line).toBe(8);
  });

  it("names the collection as a tab's kind when the tab says its kind itself", async () => {
    const errors = await errorsOf('[{ type: textTab, pageNumber: 1, xPosition: 60, yPosition: 126 }]');
    expect(errors).toHaveLength(1);
    expect(errors[0]!.message).toContain(
      "a tab's kind is the collection it is listed under, in the object form of tabs",
    );
    expect(errors[0]!.hint).toContain('textTabs');
  });

  it('still treats a typo of a position as a typo, with its missing field', async () => {
    const errors = await errorsOf('[{ pageNumbr: 1, xPosition: 1, yPosition: 2 }]');
    expect(errors.map((e) => e.code).sort()).toEqual(['SR_SCHEMA_REQUIRED', 'SR_SCHEMA_UNKNOWN_PROPERTY']);
    expect(errors.find((e) => e.code === 'SR_SCHEMA_UNKNOWN_PROPERTY')!.message).toContain(
      'did you mean "pageNumber"?',
    );
  });
});
