import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stampSignatures } from '../../src/sandbox/platform/pdf/stamp-signatures.js';

// The sandbox's stamped PDFs as they were before the drawing moved to the PDF
// layer (issue 18: behaviour unchanged, outputs byte-identical). The digests
// were computed with src/sandbox/platform/pdf/stamp-signatures.ts at 3138492.
const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('the stamp stays byte-identical', () => {
  it('for two signatures on the example offer letter, one pulled back inside the page, one with letters WinAnsi lacks', async () => {
    const pdf = readFileSync('examples/docs/offer-letter.pdf');
    const stamped = await stampSignatures(pdf, [
      {
        pageNumber: 1,
        xPosition: 72,
        yPosition: 600,
        name: 'Jean Français',
        signedAt: new Date('2026-11-20T10:11:12Z'),
      },
      {
        pageNumber: 2,
        xPosition: 590,
        yPosition: 840,
        name: 'Zoë Łukasz 李 with a rather long adopted signature name',
        signedAt: new Date('2026-11-21T00:00:00Z'),
        caption: 'Signed on paper',
      },
    ]);
    expect(sha256(stamped)).toBe('1ede510eecb0dca37068a42c3fc1e0183ffdb1bc6015554fcdd40269fce8dfa3');
  });
});
