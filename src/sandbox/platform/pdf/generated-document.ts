import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

/**
 * A one-page A4 PDF with a title and a few lines, for seeded templates
 * without a file. The bytes are a function of the text alone (fixed dates),
 * so they are made once per process: every start of a sandbox seeds the
 * same templates, and pdf-lib's drawing was a tenth of a start's CPU.
 */
export function generatedDocument(title: string, lines: string[] = []): Promise<Buffer> {
  const key = JSON.stringify([title, lines]);
  let made = madeDocuments.get(key);
  if (made === undefined) {
    made = drawDocument(title, lines);
    madeDocuments.set(key, made);
    made.catch(() => madeDocuments.delete(key));
  }
  // A copy: a caller may keep or change its Buffer.
  return made.then((bytes) => Buffer.from(bytes));
}
const madeDocuments = new Map<string, Promise<Buffer>>();

async function drawDocument(title: string, lines: string[]): Promise<Buffer> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(title);
  pdf.setProducer('signrun sandbox');
  // Fixed dates so the same seed gives the same bytes (and sha256) every time.
  pdf.setCreationDate(new Date(0));
  pdf.setModificationDate(new Date(0));
  const page = pdf.addPage([595.28, 841.89]);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  page.drawText(title, { x: 60, y: 770, size: 20, font: bold, color: rgb(0.1, 0.1, 0.1) });
  let y = 730;
  for (const line of lines) {
    page.drawText(line, { x: 60, y, size: 11, font });
    y -= 18;
  }
  return Buffer.from(await pdf.save({ useObjectStreams: false }));
}
