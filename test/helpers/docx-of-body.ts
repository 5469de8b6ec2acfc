import { zip } from './minimal-docx.js';

const w = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';

/**
 * A DOCX whose body is the WordprocessingML given, as Word writes it (runs
 * split where the test says, tables, headers): for the merge-field reader
 * and the merge, which must see through Word's run splits.
 */
export function docxOfBody(body: string, parts: Array<[name: string, xml: string]> = []): Buffer {
  return zip([
    [
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ],
    [
      '_rels/.rels',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ],
    [
      'word/document.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${w}><w:body>${body}</w:body></w:document>`,
    ],
    ...parts.map(([name, xml]): [string, string] => [
      name,
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:hdr ${w}>${xml}</w:hdr>`,
    ]),
  ]);
}

/** A paragraph of runs, one `<w:t>` per piece: Word's splits, made on purpose. */
export function paragraphOfRuns(...pieces: string[]): string {
  const escape = (s: string) =>
    s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
  return `<w:p>${pieces.map((p, i) => `<w:r w:rsidR="00${i}"><w:rPr><w:b w:val="${i % 2}"/></w:rPr><w:t xml:space="preserve">${escape(p)}</w:t></w:r>`).join('')}</w:p>`;
}

/** A table of one header row of plain cells and rows of cells, each cell one paragraph. */
export function tableOf(rows: string[][]): string {
  return `<w:tbl><w:tblPr/>${rows.map((cells) => `<w:tr><w:trPr/>${cells.map((c) => `<w:tc><w:tcPr/>${c}</w:tc>`).join('')}</w:tr>`).join('')}</w:tbl>`;
}
