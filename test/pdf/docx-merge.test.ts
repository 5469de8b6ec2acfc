import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { docxHtml } from '../../src/pdf/docx-html.js';
import { mergeDocx } from '../../src/pdf/docx-merge.js';
import { mergeFieldsOf } from '../../src/pdf/docx-merge-fields.js';
import { docxOfBody, paragraphOfRuns, tableOf } from '../helpers/docx-of-body.js';

const budget = { unpackedBytes: 1 << 20, entries: 100, paragraphs: 10_000 };
const textOf = async (docx: Uint8Array) =>
  (await docxHtml(docx, budget))
    .replace(/<\/(?:p|td|th|li)>/g, ' ')
    .replace(/<[^>]+>/g, '')
    .replace(/\s+/g, ' ')
    .trim();

describe('mergeDocx', () => {
  it('replaces a field Word split across runs, keeping the runs around it', async () => {
    const docx = docxOfBody(paragraphOfRuns('Dear {', '{Candi', 'date_Name}', '}, welcome & hello.'));
    const out = mergeDocx(docx, [{ name: 'Candidate_Name', value: 'Jean <Français>' }]);
    expect(await textOf(out)).toBe('Dear Jean &lt;Français&gt;, welcome &amp; hello.');
    expect(mergeFieldsOf(out)).toEqual([]);
    // The look of each run is kept: four runs still, the value in the first run of its tag.
    const xml = strFromU8(unzipSync(out)['word/document.xml']!);
    expect(xml.match(/<w:r /g)).toHaveLength(4);
    expect(xml).toContain('<w:t xml:space="preserve">Dear Jean &lt;Français&gt;</w:t>');
  });

  it('repeats a table row once per rowValues entry, and drops it with none', async () => {
    const body =
      tableOf([
        [paragraphOfRuns('Component'), paragraphOfRuns('Details')],
        [paragraphOfRuns('{{t:"TableRow", e:"Pay"}}{{Component}}'), paragraphOfRuns('{{Details}}')],
      ]) + paragraphOfRuns('End.');
    const docx = docxOfBody(body);
    const rows = (pairs: Array<[string, string]>) =>
      pairs.map(([c, d]) => ({
        docGenFormFieldList: [
          { name: 'Component', value: c },
          { name: 'Details', value: d },
        ],
      }));
    const two = mergeDocx(docx, [
      {
        name: 'Pay',
        type: 'TableRow',
        rowValues: rows([
          ['Salary', '62,000'],
          ['Bonus', 'up to 20%'],
        ]),
      },
    ]);
    expect(await textOf(two)).toBe('Component Details Salary 62,000 Bonus up to 20% End.');
    const none = mergeDocx(docx, [{ name: 'Pay', type: 'TableRow', rowValues: [] }]);
    expect(await textOf(none)).toBe('Component Details End.');
  });

  it('keeps the branch of {{if}} that holds, across paragraphs, and drops the others', async () => {
    const docx = docxOfBody(
      paragraphOfRuns('{{if $lowercase(Job_Title) = \u2018software engineer\u2019}}A laptop for {{Name}}.') +
        paragraphOfRuns('{{else}}A tablet.{{endif}} Welcome.'),
    );
    const engineer = mergeDocx(docx, [
      { name: 'Job_Title', value: 'Software Engineer' },
      { name: 'Name', value: 'Ada' },
    ]);
    expect(await textOf(engineer)).toBe('A laptop for Ada. Welcome.');
    const other = mergeDocx(docx, [{ name: 'Job_Title', value: 'Lawyer' }]);
    expect(await textOf(other)).toBe('A tablet. Welcome.');
  });

  it('writes Date and Number fields by their format, and leaves other parts byte for byte', async () => {
    const docx = docxOfBody(paragraphOfRuns('From {{Start}}, {{Salary}} a year.'), [
      ['word/header1.xml', paragraphOfRuns('Offer {{Ref}}')],
      ['word/styles.xml', '<w:styles/>'],
    ]);
    const out = mergeDocx(docx, [
      { name: 'Start', value: '2026-12-01', type: 'Date', format: { expression: 'MMMM d, yyyy' } },
      { name: 'Salary', value: '62000', type: 'Number', format: { expression: 'EUR #,##0.00' } },
      { name: 'Ref', value: 'A-7' },
    ]);
    expect(await textOf(out)).toBe('From December 1, 2026, EUR 62,000.00 a year.');
    const files = unzipSync(out);
    expect(strFromU8(files['word/header1.xml']!)).toContain('>Offer A-7</w:t>');
    expect(files['word/styles.xml']).toEqual(unzipSync(docx)['word/styles.xml']);
  });
});
