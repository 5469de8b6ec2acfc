import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ResolvedDocument } from '../../src/jobs/model.js';
import { ValidatedDocuments } from '../../src/runner/envelopes/validated-documents.js';

const dir = mkdtempSync(join(tmpdir(), 'signrun-validated-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A document as validate resolved it: its file written with `content`, and that content's sha256. */
function documentOf(name: string, content: string): ResolvedDocument {
  const path = join(dir, name);
  writeFileSync(path, content);
  return {
    documentId: '1',
    name,
    path,
    fileExtension: 'pdf',
    size: content.length,
    pageCount: 1,
    sha256: createHash('sha256').update(content).digest('hex'),
  };
}

describe("a run's validated documents (issue 37: read once per run, not once per envelope)", () => {
  it('sends the validated bytes to every envelope, read once, even when the file changes after the first read', async () => {
    const documents = new ValidatedDocuments();
    const doc = documentOf('letter.pdf', '%PDF-1.4 the letter validated');
    const first = await documents.base64(doc);
    expect(Buffer.from(first, 'base64').toString()).toBe('%PDF-1.4 the letter validated');
    // Changed on disk after the first envelope read it: later envelopes still send what was validated.
    writeFileSync(doc.path, '%PDF-1.4 another letter');
    expect(await documents.base64({ ...doc })).toBe(first);
  });

  it('refuses a document changed before its first read (SR_DOC_CHANGED), and asks again next time', async () => {
    const documents = new ValidatedDocuments();
    const doc = documentOf('swapped.pdf', '%PDF-1.4 validated');
    writeFileSync(doc.path, '%PDF-1.4 swapped after validate');
    await expect(documents.base64(doc)).rejects.toMatchObject({ code: 'SR_DOC_CHANGED' });
    // Put back: the refusal was not kept.
    writeFileSync(doc.path, '%PDF-1.4 validated');
    expect(Buffer.from(await documents.base64(doc), 'base64').toString()).toBe('%PDF-1.4 validated');
  });

  it('keeps at most 16 MB: a letter per row is read again once others pushed it out', async () => {
    const documents = new ValidatedDocuments();
    const big = (i: number) => `%PDF-1.4 ${i}${'x'.repeat(5 * 1024 * 1024)}`;
    const docs = [0, 1, 2, 3].map((i) => documentOf(`row-${i}.pdf`, big(i)));
    for (const doc of docs) await documents.base64(doc);
    // 4 × ~6.7 MB of base64 is over 16 MB: the first is no longer kept, so a change to it is now seen.
    writeFileSync(docs[0]!.path, 'changed');
    await expect(documents.base64(docs[0]!)).rejects.toMatchObject({ code: 'SR_DOC_CHANGED' });
    // The last one read is kept.
    writeFileSync(docs[3]!.path, 'changed');
    expect((await documents.base64(docs[3]!)).length).toBeGreaterThan(5 * 1024 * 1024);
  });
});
