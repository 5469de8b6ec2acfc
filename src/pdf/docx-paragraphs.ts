import type { ZipPartCheck } from './zip-budget.js';

/**
 * An element whose local name is `p` (WordprocessingML's paragraph, `<w:p>`,
 * whatever prefix the document binds to its namespace), opened: `<w:p>`,
 * `<w:p w:rsidR="…">`, `<p/>`; not `<w:pPr>` nor `<w:proofErr>`.
 */
const PARAGRAPH = /<(?:[\w.-]+:)?p[\s/>]/g;

/**
 * A check of a DOCX's parts (for zipBudgetProblem) that counts the
 * paragraphs of its text parts (`word/*.xml`: the body, headers, footers,
 * notes, comments) as they are unpacked, and stops past `most`. mammoth
 * holds a whole document in memory several times over (100,000 empty
 * paragraphs: 1.1 GB and 13 s before the page limit could refuse it, issue
 * 36); counting the XML's paragraphs first is a few milliseconds, and a
 * document with more paragraphs than the pages could hold is refused before
 * mammoth sees it.
 */
export function paragraphCount(most: number): ZipPartCheck {
  let count = 0;
  return (name, data) => {
    if (!/^word\/[^/]+\.xml$/i.test(name)) return undefined;
    const xml = data.toString('latin1');
    PARAGRAPH.lastIndex = 0;
    while (PARAGRAPH.exec(xml) !== null) {
      if (++count > most)
        return { kind: 'paragraphs', message: `it has more than ${most.toLocaleString('en-US')} paragraphs` };
    }
    return undefined;
  };
}
