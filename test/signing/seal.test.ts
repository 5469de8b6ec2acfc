import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createPdfSealer } from '../../src/sandbox/platform/seal/seal-pdf.js';
import { loadOrCreateSandboxCa } from '../../src/sandbox/platform/seal/sandbox-ca.js';
import { stampSignatures } from '../../src/sandbox/platform/pdf/stamp-signatures.js';
import { samplePdf, tempPdf, tool } from './pdf-tools.js';

// pdfsig prints, per signature, "Signature Validation: Signature is Valid." when
// the CMS digest matches the signed byte ranges, and "Signature is Invalid."
// (or "Digest Mismatch.") after a change. The sandbox root is not in the
// system trust store, so "Certificate Validation:" says the issuer is
// unknown/untrusted: that line is deliberately NOT asserted.
const valid = /Signature Validation: Signature is Valid\./;

describe('sandbox CA and sealing', () => {
  it('keeps the CA in the data folder and reuses it on the next start', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'signrun-ca-'));
    const first = loadOrCreateSandboxCa(dataDir);
    const again = loadOrCreateSandboxCa(dataDir);
    expect(again.rootCertPem).toBe(first.rootCertPem);
    expect(again.p12.equals(first.p12)).toBe(true);
    expect(statSync(join(dataDir, 'ca', 'sandbox-sealing.p12')).mode & 0o077).toBe(0);
    expect(readFileSync(join(dataDir, 'ca', 'sandbox-root-ca.pem'), 'utf8')).toContain('BEGIN CERTIFICATE');
    // Without a data folder: a fresh in-memory CA each time.
    expect(loadOrCreateSandboxCa().rootCertPem).not.toBe(first.rootCertPem);
  });

  it('produces a signature pdfsig validates, and a changed byte invalidates', async () => {
    const seal = createPdfSealer(loadOrCreateSandboxCa());
    const stamped = await stampSignatures(await samplePdf('sealed contract', 2), [
      { pageNumber: 1, xPosition: 72, yPosition: 500, name: 'Alice Martin', signedAt: new Date() },
    ]);
    const sealed = await seal(stamped);
    const path = tempPdf(sealed);

    const check = await tool('pdfsig', [path]);
    expect(check.out).toMatch(valid);
    expect(check.out).toContain('signrun sandbox document sealing');
    expect((await tool('qpdf', ['--check', path])).code).toBe(0);
    expect((await tool('pdftotext', [path, '-'])).out).toContain('Alice Martin');

    // Change one byte inside the signed ranges (the seal's own /Reason text,
    // which sits outside /Contents, so it is covered by the digest).
    const tampered = Buffer.from(sealed);
    const at = tampered.indexOf('Sealed by the signrun sandbox');
    expect(at).toBeGreaterThan(0);
    tampered[at] = 'X'.charCodeAt(0);
    const broken = await tool('pdfsig', [tempPdf(tampered)]);
    expect(broken.out).not.toMatch(valid);
    expect(broken.out).toMatch(/Signature is Invalid|Digest Mismatch/);
  });
});
