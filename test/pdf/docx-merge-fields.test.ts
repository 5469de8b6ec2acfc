import { describe, expect, it } from 'vitest';
import { mergeFieldsOf } from '../../src/pdf/docx-merge-fields.js';
import { RenditionError } from '../../src/pdf/rendition-error.js';
import { docxOfBody, paragraphOfRuns, tableOf } from '../helpers/docx-of-body.js';

describe('mergeFieldsOf', () => {
  it('finds a field Word split across runs, and one written with spaces inside the braces', () => {
    const docx = docxOfBody(
      paragraphOfRuns('Dear {', '{Candi', 'date_Na', 'me}', '},') + paragraphOfRuns('Salary: {{ Salary }} a year.'),
    );
    expect(mergeFieldsOf(docx)).toEqual([
      { name: 'Candidate_Name', kind: 'text', columns: [] },
      { name: 'Salary', kind: 'text', columns: [] },
    ]);
  });

  it('reads a table row (curly or escaped quotes) with the fields of its cells as columns, and skips conditions', () => {
    const docx = docxOfBody(
      paragraphOfRuns('{{if Job_Title = \u2018Engineer\u2019}}A laptop.{{endif}}') +
        tableOf([
          [paragraphOfRuns('Component'), paragraphOfRuns('Details')],
          [paragraphOfRuns('{{t:"TableRow", e:"Comp', 'ensation"}}{{Component}}'), paragraphOfRuns('{{Det', 'ails}}')],
        ]) +
        paragraphOfRuns('Start: {{Start_Date}}'),
      [['word/header1.xml', paragraphOfRuns('Ref {{Reference}}')]],
    );
    expect(mergeFieldsOf(docx)).toEqual([
      { name: 'Compensation', kind: 'tableRow', columns: ['Component', 'Details'] },
      { name: 'Start_Date', kind: 'text', columns: [] },
      { name: 'Reference', kind: 'text', columns: [] },
    ]);
  });

  it('lists a field once however often it appears', () => {
    const docx = docxOfBody(paragraphOfRuns('{{Name}} and {{Name}}') + paragraphOfRuns('{{Name}}'));
    expect(mergeFieldsOf(docx).map((f) => f.name)).toEqual(['Name']);
  });

  it('refuses what is not a DOCX with SR_DOC_NOT_CONVERTIBLE', () => {
    expect(() => mergeFieldsOf(Buffer.from('not a zip at all, just text'))).toThrow(RenditionError);
  });
});
