// Generates examples/docs/word-offer-letter.docx, the Word template of
// examples/word-offer-letters.yaml (run with `npm run examples:docx`). The DOCX
// is committed too, so a clean clone validates without running this. It is
// written as Word writes one: DocuSign's merge fields in the text
// (`{{Candidate_Name}}`), one of them split across runs as Word splits a
// field it spell-checks, and a table row that repeats per entry
// (`{{t:"TableRow", e:"Compensation"}}`). fflate with a fixed date makes
// re-running give the same bytes.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { strToU8, zipSync } from 'fflate';

const here = fileURLToPath(new URL('.', import.meta.url));
const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const escape = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** A paragraph of runs: one `<w:t>` per piece, as Word splits them. */
const paragraph = (pieces, style) =>
  `<w:p>${style ? `<w:pPr><w:pStyle w:val="${style}"/></w:pPr>` : ''}${[pieces]
    .flat()
    .map((p) => `<w:r><w:t xml:space="preserve">${escape(p)}</w:t></w:r>`)
    .join('')}</w:p>`;
const cell = (text) => `<w:tc><w:tcPr><w:tcW w:w="4500" w:type="dxa"/></w:tcPr>${paragraph(text)}</w:tc>`;
const row = (...cells) => `<w:tr>${cells.map(cell).join('')}</w:tr>`;

const body = [
  paragraph('Offer of employment', 'Heading1'),
  paragraph('Dear {{Candidate_Name}},'),
  // Word split this field where it marked "Job_Title" as a spelling mistake: signrun still finds it.
  paragraph(['We are pleased to offer you the position of {{Job_', 'Ti', 'tle}} at Acme, reporting to {{Manager_Name}}.']),
  paragraph('Your employment begins on {{Start_Date}}. Your annual salary is EUR {{Salary}}.'),
  paragraph('Your compensation package:'),
  `<w:tbl><w:tblPr><w:tblW w:w="9000" w:type="dxa"/></w:tblPr>${row('Component', 'Details')}${row('{{t:"TableRow", e:"Compensation"}}{{Component}}', '{{Details}}')}</w:tbl>`,
  paragraph('The offer is valid for fourteen days from the date of this letter.'),
  paragraph('I accept the offer on the terms of this letter.'),
  paragraph('Date signed:'),
  paragraph('Signature of the candidate:'),
  paragraph('______________________________'),
].join('');

const files = {
  '[Content_Types].xml':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/><Override PartName="/word/styles.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.styles+xml"/></Types>',
  '_rels/.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
  'word/_rels/document.xml.rels':
    '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/styles" Target="styles.xml"/></Relationships>',
  'word/styles.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:styles ${w}><w:style w:type="paragraph" w:styleId="Heading1"><w:name w:val="heading 1"/></w:style></w:styles>`,
  'word/document.xml': `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${w}><w:body>${body}</w:body></w:document>`,
};
const zipped = zipSync(
  Object.fromEntries(Object.entries(files).map(([name, xml]) => [name, strToU8(xml)])),
  { level: 9, mtime: new Date('2026-01-01T00:00:00Z') },
);
writeFileSync(`${here}word-offer-letter.docx`, zipped);
console.log('wrote examples/docs/word-offer-letter.docx');
