// Generates the example PDFs (run with `npm run examples:pdfs`). The PDFs are
// committed too, so a clean clone validates without running this; re-run it
// after changing the text below. pdf-lib writes deterministic output when the
// dates are fixed, so re-running does not change the files.
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';

const here = fileURLToPath(new URL('.', import.meta.url));
const A4 = [595, 842];
const fixedDate = new Date('2026-01-01T00:00:00Z');

const documents = {
  'offer-letter.pdf': {
    title: 'Offer letter',
    pages: [
      ['Dear Jean Français,', '', 'We are pleased to offer you the position of Senior Engineer', 'at Acme France, starting on 1 December 2026.', '', 'Salary and benefits are described on the next page.'],
      ['Salary: EUR 62,000 per year, paid monthly.', 'Holidays: 27 days per year.', '', 'Signature of the employee:', '', '', '______________________________'],
    ],
  },
  'company-handbook.pdf': {
    title: 'Company handbook (acknowledgement)',
    pages: [['I have read and accept the Acme company handbook,', 'version 2026.2, including its code of conduct.', '', 'Signature:', '', '______________________________']],
  },
  // The offer letter HR copies first (examples/offer-letters.yaml): each label
  // is an anchor that signrun finds before sending, and the tabs go after it.
  'offer-letter-form.pdf': {
    title: 'Offer of employment',
    pages: [
      ['We are pleased to offer you employment at Acme on the terms below.', '', 'Candidate name:', 'Position:', 'Annual salary (EUR):', 'Start date:', 'Office:', '', 'Please tell us:', 'Relocation support wanted:', 'Preferred first name:', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', 'Initials:'],
      ['The offer is valid for fourteen days from the date of this letter.', 'Salary is paid monthly; holidays are 27 days per year.', '', 'I accept the offer on the terms of this letter.', '', '', 'Signature of the candidate:', '', '', '', 'Date signed:', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', '', 'Initials:'],
    ],
  },
  'renewal-terms.pdf': {
    title: 'Contract renewal',
    pages: [
      ['The employment contract is renewed for twelve months', 'under the terms agreed in the annual review.', '', 'All other terms of the contract are unchanged.'],
      ['Signature of the employee:', '', '______________________________', '', 'Signature of the manager:', '', '______________________________'],
    ],
  },
};

for (const [file, spec] of Object.entries(documents)) {
  const pdf = await PDFDocument.create();
  pdf.setTitle(spec.title);
  pdf.setProducer('signrun examples/docs/make-pdfs.mjs');
  pdf.setCreator('signrun');
  pdf.setCreationDate(fixedDate);
  pdf.setModificationDate(fixedDate);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const bold = await pdf.embedFont(StandardFonts.HelveticaBold);
  spec.pages.forEach((lines, index) => {
    const page = pdf.addPage(A4);
    page.drawText(spec.title, { x: 60, y: 770, size: 20, font: bold, color: rgb(0.1, 0.2, 0.4) });
    lines.forEach((line, i) => page.drawText(line, { x: 60, y: 720 - i * 18, size: 12, font }));
    page.drawText(`Page ${index + 1} of ${spec.pages.length}`, { x: 60, y: 40, size: 9, font });
  });
  await writeFile(`${here}/${file}`, await pdf.save());
  console.log(`wrote examples/docs/${file}`);
}
