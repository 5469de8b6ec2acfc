import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadJobs } from '../../src/jobs/index.js';
import { maxAnchorPlacements } from '../../src/pdf/index.js';

// Issue 36: an anchor found 57,000 times passed `validate` without a word,
// and the sandbox refused the envelope at `run` (more than 1,000 tabs for
// one anchor). One rule now (src/pdf/anchor-places.ts): validate refuses it
// at the anchor's line, and the sandbox by the same count.

const dirs: string[] = [];
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

/** A job whose one document (TXT) holds `occurrences` lines of the word `e`, with a tab anchored on it (line 12). */
function campaign(occurrences: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-anchors-'));
  dirs.push(dir);
  mkdirSync(join(dir, 'docs'));
  writeFileSync(join(dir, 'docs/letter.txt'), `Letter\n\n${'e\n'.repeat(occurrences)}`);
  writeFileSync(
    join(dir, 'job.yaml'),
    `version: 1
job: anchors
defaults: { emailSubject: Sign }
envelopes:
  - key: e1
    documents: [{ name: letter.txt, file: docs/letter.txt }]
    recipients:
      - name: Jean
        email: jean@example.com
        tabs:
          signHereTabs:
            - { anchorString: "e", anchorMatchWholeWord: "true" }
`,
  );
  return dir;
}

describe('one rule for anchor placements (issue 36)', () => {
  it(`validate refuses an anchor found more than ${maxAnchorPlacements} times, at its line`, async () => {
    const dir = campaign(maxAnchorPlacements + 1);
    const result = await loadJobs([dir], { cwd: dir, env: {} });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map(({ code, line, field }) => ({ code, line, field }))).toEqual([
      { code: 'SR_ANCHOR_TOO_MANY', line: 12, field: expect.stringContaining('anchorString') as unknown },
    ]);
    expect(result.errors[0]!.message).toMatch(/1,001 times/);
  });

  it('validate takes an anchor found exactly as often as the sandbox places tabs for one', async () => {
    const dir = campaign(maxAnchorPlacements);
    expect((await loadJobs([dir], { cwd: dir, env: {} })).ok).toBe(true);
  });
});
