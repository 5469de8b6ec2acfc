import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tabsObject } from '../../src/envelope/index.js';
import { loadJobs, type ResolvedEnvelope } from '../../src/jobs/index.js';
import { EnvelopeText } from '../../src/pdf/index.js';
import { DocumentSources } from '../../src/preview/document-sources.js';
import { previewEnvelope } from '../../src/preview/preview-envelope.js';
import { wireTabOf } from '../../src/runner/envelopes/envelope-definition.js';
import { signaturePlaces } from '../../src/sandbox/signing/signature-places.js';
import { stampSignatures } from '../../src/sandbox/platform/pdf/stamp-signatures.js';
import { placeTabs } from '../../src/sandbox/esignature/envelopes/tabs/place-tabs.js';
import { valueTabsToDraw } from '../../src/sandbox/esignature/envelopes/tabs/tab-values.js';
import { repoRoot } from '../helpers/run-cli.js';
import { tempPdf } from '../signing/pdf-tools.js';
import { popplerWords, type PopplerWord } from '../pdf/poppler.js';

/** The offer-letter example's envelopes, loaded as `preview` and `run` load them. */
async function offerLetters(): Promise<ResolvedEnvelope[]> {
  const dir = mkdtempSync(join(tmpdir(), 'signrun-preview-'));
  cpSync(join(repoRoot, 'examples'), dir, { recursive: true });
  const loaded = await loadJobs(['offer-letters.yaml'], { cwd: dir, env: {} });
  if (!loaded.ok) throw new Error(JSON.stringify(loaded.errors));
  return loaded.jobs[0]!.envelopes;
}

/**
 * What the sandbox does with the same envelope: it places the tabs the
 * runner sends when the envelope is created (placeTabs), and stamps them when
 * the candidate signs (signature places, then the other tabs with their values).
 */
async function sandboxStamp(envelope: ResolvedEnvelope, pdf: Uint8Array): Promise<Uint8Array> {
  const recipient = envelope.recipients[0]!;
  const wire = tabsObject(recipient.tabs.map((t) => ({ kind: t.kind, tab: wireTabOf(t, '1') })));
  const text = new EnvelopeText([{ documentId: '1', bytes: () => pdf }]);
  const placed = await placeTabs(wire, '1', text);
  const signedAt = new Date('2027-01-02T03:04:05Z');
  return stampSignatures(
    pdf,
    signaturePlaces(placed).map((p) => ({ ...p, name: recipient.name, signedAt })),
    valueTabsToDraw(placed, '1', { signatureName: recipient.name, signedAt }),
  );
}

const find = (words: PopplerWord[], word: string) => words.filter((w) => w.word === word);

describe('the preview draws each tab where the sandbox stamps it', () => {
  it('offer letter: every prefilled value at the same place on the same page as in the stamped PDF', async () => {
    const [first] = await offerLetters();
    const preview = await previewEnvelope(first!, new DocumentSources());
    const pdf = new Uint8Array(readFileSync(first!.documents[0]!.path));
    const stamped = await popplerWords(tempPdf(await sandboxStamp(first!, pdf)));
    const previewed = await popplerWords(tempPdf(preview.pdf));
    expect(previewed.map((p) => [p.width, p.height])).toEqual(stamped.map((p) => [p.width, p.height]));

    // Amélie Laurent's row: values given before sending, and the boxes' positions.
    const values = ['Amélie', 'Laurent', 'Senior', '72000', '2027-01-04', 'Lisbon'];
    for (const value of values) {
      const inStamp = find(stamped[0]!.words, value);
      const inPreview = find(previewed[0]!.words, value);
      expect(inStamp.length, value).toBeGreaterThan(0);
      // Amélie and Laurent are also the signature, stamped on page 2: page 1 holds the text tab's only.
      expect(
        inPreview.map((w) => [w.xMin, w.yMin, w.xMax, w.yMax]),
        value,
      ).toEqual(inStamp.map((w) => [w.xMin, w.yMin, w.xMax, w.yMax]));
    }
    // The boxes the preview computed are those the stamp draws in: the salary inside its 100 pt box.
    const salary = preview.pages[0]!.tabs.find((t) => t.tab.tabLabel === 'Salary')!;
    const [word] = find(stamped[0]!.words, '72000');
    expect(word!.xMin).toBeGreaterThanOrEqual(salary.box.left);
    expect(word!.xMax).toBeLessThanOrEqual(salary.box.left + salary.box.width);
    expect(word!.yMin).toBeGreaterThanOrEqual(salary.box.top);
    expect(word!.yMax).toBeLessThanOrEqual(salary.box.top + salary.box.height);
  });

  it('offer letter: the signature box is the stamp’s, on page 2 beside its anchor', async () => {
    const [first] = await offerLetters();
    const preview = await previewEnvelope(first!, new DocumentSources());
    const pdf = new Uint8Array(readFileSync(first!.documents[0]!.path));
    const stamped = await popplerWords(tempPdf(await sandboxStamp(first!, pdf)));
    const sign = preview.pages[1]!.tabs.find((t) => t.tab.kind === 'signHere')!;
    // The stamp writes the signer's name in the box (caption above, time beneath): all inside the preview's box.
    const caption = find(stamped[1]!.words, 'Signed');
    expect(caption).toHaveLength(1);
    expect(caption[0]!.xMin).toBeCloseTo(sign.box.left + 4, 0);
    expect(caption[0]!.yMin).toBeGreaterThanOrEqual(sign.box.top);
    expect(caption[0]!.yMax).toBeLessThanOrEqual(sign.box.top + sign.box.height);
    expect([sign.box.width, sign.box.height]).toEqual([180, 48]);
  });
});
