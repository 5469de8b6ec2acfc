import { describe, expect, it } from 'vitest';
import { PDFDocument } from 'pdf-lib';
import { certificatePdf, type CertificateInput } from '../../src/sandbox/esignature/envelopes/documents/certificate.js';
import { textWidth, winAnsi } from '../../src/sandbox/platform/pdf/text-pdf.js';
import type { RecipientRecord } from '../../src/sandbox/esignature/envelopes/repository.js';
import type { EventRecord } from '../../src/sandbox/esignature/envelopes/events-repository.js';
import { tempPdf, tool, wordsOnPage } from '../signing/pdf-tools.js';
import { sentEnvelopeRecord } from './helpers/envelope-records.js';

const at = Date.UTC(2026, 10, 21, 9, 30);
const userAgent =
  'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36';

function recipient(i: number, name = `Signer ${i}`): RecipientRecord {
  return {
    envelopeId: 'e',
    recipientId: String(i),
    kind: 'signer',
    details: {},
    accessCodeHash: null,
    accessCodeFailures: 0,
    position: i,
    recipientIdGuid: `guid-${i}`,
    userId: `user-${i}`,
    name,
    email: `signer${i}@example.com`,
    clientUserId: `c-${i}`,
    routingOrder: 1,
    roleName: null,
    status: 'completed',
    tabs: {},
    emailSubject: null,
    emailBody: null,
    supportedLanguage: null,
    sentAt: at,
    deliveredAt: at,
    signedAt: at,
    declinedAt: null,
    declinedReason: null,
  };
}

function event(id: number, recipientId: string | null, type: EventRecord['type']): EventRecord {
  return {
    id,
    envelopeId: 'e',
    accountId: 'a',
    recipientId,
    type,
    at: at + id * 1000,
    ip: '198.51.100.7',
    userAgent,
    details: null,
  };
}

function input(signers: number, names: (i: number) => string = (i) => `Signer ${i}`): CertificateInput {
  const recipients = Array.from({ length: signers }, (_, i) => recipient(i + 1, names(i + 1)));
  return {
    envelope: {
      ...sentEnvelopeRecord('0b7e5a52-6b0e-4c4e-9d55-7d3f2f0c1a11', 'a', at),
      status: 'completed',
      emailSubject: 'Contrat de travail — signé',
      deliveredAt: at,
      completedAt: at + 60_000,
      statusChangedAt: at + 60_000,
    },
    documents: [
      {
        envelopeId: 'e',
        documentId: '1',
        position: 1,
        name: 'offer.pdf',
        sha256: 'a'.repeat(64),
        originalSha256: 'a'.repeat(64),
        size: 1731,
        pages: 2,
      },
    ],
    recipients,
    events: [
      event(1, null, 'envelope-sent'),
      ...recipients.flatMap((r, i) => [
        event(10 + 2 * i, r.recipientId, 'recipient-sent'),
        event(11 + 2 * i, r.recipientId, 'recipient-completed'),
      ]),
      event(999, null, 'envelope-completed'),
    ],
  };
}

describe('certificate of completion (pdf/certificate.ts on pdf/text-pdf.ts)', () => {
  it('is a well-formed PDF that poppler, qpdf and pdf-lib read, with every line inside the page', async () => {
    const bytes = certificatePdf(input(2));
    const file = tempPdf(bytes, 'certificate.pdf');
    const check = await tool('qpdf', ['--check', file]);
    expect(check.code).toBe(0);
    const text = (await tool('pdftotext', [file, '-'])).out;
    expect(text).toContain('Envelope id: 0b7e5a52-6b0e-4c4e-9d55-7d3f2f0c1a11');
    expect(text).toContain('Subject: Contrat de travail — signé');
    expect(text).toContain('Document 1: offer.pdf — 2 page(s), 1731 bytes');
    expect(text).toContain(`sha256 ${'a'.repeat(64)}`);
    expect(text).toContain('Signer 2 <signer2@example.com> — recipient 2');
    // The user agent line is wider than the page: wrapped at a space, nothing lost.
    expect(text).toMatch(/Signed \(IP 198\.51\.100\.7, agent Mozilla\/5\.0 \(X11; Linux x86_64\)/);
    // The whole user agent, never cut inside a word ("(KHTML, l" was what a 60-character cut left).
    expect(text.replace(/\s+/g, ' ')).toContain('(KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36)');
    expect(text).toContain('Envelope completed');
    expect((await PDFDocument.load(bytes)).getPageCount()).toBe(1);
    const info = (await tool('pdfinfo', [file])).out;
    expect(info).toMatch(/Title:\s+Certificate of completion — envelope 0b7e5a52/);
    expect(info).toMatch(/Page size:\s+595\.28 x 841\.89 pts \(A4\)/);
    const words = await wordsOnPage(file, 1);
    expect(words.length).toBeGreaterThan(50);
    for (const w of words) expect(w.xMin).toBeGreaterThanOrEqual(50);
    const right = await tool('pdftotext', ['-bbox', file, '-']);
    const xMax = [...right.out.matchAll(/xMax="([\d.]+)"/g)].map((m) => Number(m[1]));
    expect(Math.max(...xMax)).toBeLessThanOrEqual(595.28 - 50 + 1);
  });

  it('continues on new pages when the recipients do not fit on one', async () => {
    const bytes = certificatePdf(input(40));
    const file = tempPdf(bytes, 'long.pdf');
    expect((await tool('qpdf', ['--check', file])).code).toBe(0);
    const pages = (await PDFDocument.load(bytes)).getPageCount();
    expect(pages).toBeGreaterThan(1);
    const text = (await tool('pdftotext', [file, '-'])).out;
    for (let i = 1; i <= 40; i++) expect(text).toContain(`Signer ${i} <signer${i}@example.com>`);
    // Nothing is written below the bottom margin.
    for (let page = 1; page <= pages; page++) {
      for (const w of await wordsOnPage(file, page)) expect(w.yMax).toBeLessThanOrEqual(841.89 - 40);
    }
  });

  it('gives the same bytes for the same envelope state, other bytes once an event is added', () => {
    const a = certificatePdf(input(2));
    expect(certificatePdf(input(2)).equals(a)).toBe(true);
    const later = input(2);
    later.events.push(event(1000, null, 'envelope-voided'));
    expect(certificatePdf(later).equals(a)).toBe(false);
  });

  it('writes WinAnsi letters as they are, other characters as ?, control characters as spaces', async () => {
    const bytes = certificatePdf(input(1, () => 'Zoë “Œuvre” (HR) a\\b €5 漢字\tTab'));
    const file = tempPdf(bytes);
    expect((await tool('qpdf', ['--check', file])).code).toBe(0);
    const text = (await tool('pdftotext', [file, '-'])).out;
    expect(text).toContain('Zoë “Œuvre” (HR) a\\b €5 ?? Tab <signer1@example.com>');
    expect(winAnsi('a\u0000b\u0085c😀')).toBe('a b c?');
  });

  it('measures text with the Helvetica metrics (bold wider than regular, proportional to size)', () => {
    expect(textWidth('', 'regular', 10)).toBe(0);
    // Helvetica: "i" is 222/1000 em, "W" 944/1000 em.
    expect(textWidth('i', 'regular', 10)).toBeCloseTo(2.22, 5);
    expect(textWidth('W', 'regular', 20)).toBeCloseTo(18.88, 5);
    expect(textWidth('Signed', 'bold', 10)).toBeGreaterThan(textWidth('Signed', 'regular', 10));
  });
});
