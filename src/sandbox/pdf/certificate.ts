import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';
import type { EnvelopeRecord, RecipientRecord, DocumentRecord } from '../repositories/envelopes.js';
import type { EventRecord } from '../repositories/events.js';
import { isoTime } from '../clock.js';

/** What the certificate of completion states. */
export interface CertificateInput {
  envelope: EnvelopeRecord;
  documents: Array<DocumentRecord & { pages: number }>;
  recipients: RecipientRecord[];
  events: EventRecord[];
}

const eventLabels: Record<string, string> = {
  'envelope-sent': 'Envelope sent',
  'envelope-delivered': 'Envelope delivered',
  'envelope-completed': 'Envelope completed',
  'envelope-declined': 'Envelope declined',
  'envelope-voided': 'Envelope voided',
  'recipient-sent': 'Sent to recipient',
  'recipient-delivered': 'Viewed',
  'recipient-completed': 'Signed',
  'recipient-declined': 'Declined',
};

/**
 * The certificate of completion (4.10, `documents/certificate`): a real PDF
 * stating the envelope id, subject and status, each document with its pages
 * and sha256 (of its current version), each recipient with their events,
 * times (UTC) and IP addresses.
 */
export async function certificatePdf(input: CertificateInput): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(`Certificate of completion — envelope ${input.envelope.id}`);
  pdf.setProducer('signrun sandbox');
  pdf.setCreationDate(new Date(input.envelope.createdAt));
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  const writer = new PageWriter(pdf, font, bold);
  const e = input.envelope;

  writer.line('Certificate of completion', { size: 18, bold: true });
  writer.gap();
  writer.line(`Envelope id: ${e.id}`);
  writer.line(`Subject: ${e.emailSubject || '(none)'}`);
  writer.line(`Status: ${e.status}`);
  writer.line(`Created: ${isoTime(e.createdAt)}`);
  if (e.sentAt) writer.line(`Sent: ${isoTime(e.sentAt)}`);
  if (e.completedAt) writer.line(`Completed: ${isoTime(e.completedAt)}`);
  if (e.declinedAt) writer.line(`Declined: ${isoTime(e.declinedAt)}`);
  if (e.voidedAt) writer.line(`Voided: ${isoTime(e.voidedAt)} (${e.voidedReason ?? ''})`);
  writer.gap();
  writer.line('Documents', { size: 13, bold: true });
  for (const d of input.documents) {
    writer.line(`Document ${d.documentId}: ${d.name} — ${d.pages} page(s), ${d.size} bytes`);
    writer.line(`sha256 ${d.sha256}`, { size: 8, indent: 14 });
  }
  writer.gap();
  writer.line('Recipients', { size: 13, bold: true });
  for (const r of input.recipients) {
    writer.line(`${r.name} <${r.email}> — recipient ${r.recipientId}, routing order ${r.routingOrder}, ${r.status}`, {
      bold: true,
    });
    const events = input.events.filter((ev) => ev.recipientId === r.recipientId);
    if (events.length === 0) writer.line('no events', { indent: 14 });
    for (const ev of events) {
      const where = [ev.ip ? `IP ${ev.ip}` : null, ev.userAgent ? `agent ${ev.userAgent.slice(0, 60)}` : null]
        .filter(Boolean)
        .join(', ');
      writer.line(`${isoTime(ev.at)}  ${eventLabels[ev.type] ?? ev.type}${where ? `  (${where})` : ''}`, {
        indent: 14,
        size: 9,
      });
    }
  }
  writer.gap();
  writer.line('Envelope events', { size: 13, bold: true });
  for (const ev of input.events.filter((x) => x.recipientId === null)) {
    writer.line(`${isoTime(ev.at)}  ${eventLabels[ev.type] ?? ev.type}${ev.ip ? `  (IP ${ev.ip})` : ''}`, { size: 9 });
  }
  return Buffer.from(await pdf.save());
}

/** Writes lines top to bottom, adding pages as needed. */
class PageWriter {
  #page: PDFPage;
  #y = 0;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.#page = this.#newPage();
  }
  #newPage(): PDFPage {
    const page = this.pdf.addPage([595.28, 841.89]);
    this.#y = 790;
    return page;
  }
  line(text: string, options: { size?: number; bold?: boolean; indent?: number } = {}): void {
    const size = options.size ?? 10;
    if (this.#y < 50) this.#page = this.#newPage();
    const font = options.bold ? this.bold : this.font;
    // Standard fonts encode WinAnsi only; replace what they cannot draw.
    const safe = [...text].map((c) => (c.charCodeAt(0) < 256 || c === '—' ? c : '?')).join('');
    this.#page.drawText(safe, {
      x: 50 + (options.indent ?? 0),
      y: this.#y,
      size,
      font,
      color: rgb(0.1, 0.1, 0.1),
      maxWidth: 495,
    });
    this.#y -= size + 5;
  }
  gap(): void {
    this.#y -= 8;
  }
}
