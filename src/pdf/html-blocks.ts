import { Parser } from 'htmlparser2';
import { collapseSpaces, type TextBlock } from './text-blocks.js';

/** Elements whose content is not text a reader sees. */
const hidden = new Set(['head', 'script', 'style', 'template', 'noscript', 'title', 'svg', 'math', 'object', 'iframe']);

/**
 * Elements that end the text before them and start a new block (HTML's
 * block-level content, as browsers lay it out). Table cells do not: a row is
 * one line, its cells apart by a space — also when a cell holds paragraphs,
 * as every cell of the HTML mammoth makes of a Word table does
 * (`<td><p>…</p></td>`): inside a cell a block element is a space.
 */
const breaking = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'body',
  'caption',
  'dd',
  'details',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hr',
  'html',
  'li',
  'main',
  'nav',
  'ol',
  'p',
  'pre',
  'section',
  'summary',
  'table',
  'tbody',
  'tfoot',
  'thead',
  'tr',
  'ul',
]);

const headingLevel = (name: string): number => (/^h[1-6]$/.test(name) ? Number(name[1]) : 0);

/**
 * The blocks of an HTML document (or of the HTML mammoth makes of a DOCX):
 * h1–h6 are headings, li list items, other block elements paragraphs; `<br>`
 * is a line break; script, style and the head are skipped; entities are
 * decoded and spaces collapsed as a browser does. htmlparser2 reads it as
 * browsers forgive it (unclosed `<p>`, stray end tags), in one pass.
 */
export function htmlBlocks(html: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  /** Open elements that decide what the current text is: a heading's level, or -1 for a list item. */
  const styles: number[] = [];
  let skipping = 0;
  let text = '';
  let preformatted = 0;
  /** Open td/th elements: inside one, block elements do not end the row's line. */
  let cells = 0;
  const flush = () => {
    const collapsed = collapseSpaces(text).trim();
    text = '';
    if (collapsed === '') return;
    const style = styles.length > 0 ? styles[styles.length - 1]! : 0;
    blocks.push(
      style > 0
        ? { kind: 'heading', level: style, text: collapsed }
        : { kind: style < 0 ? 'item' : 'paragraph', level: 0, text: collapsed },
    );
  };
  const parser = new Parser(
    {
      onopentag(name) {
        if (hidden.has(name)) {
          skipping++;
          return;
        }
        if (skipping > 0) return;
        if (name === 'br') text += '\n';
        else if (name === 'td' || name === 'th') {
          cells++;
          text += ' ';
        } else if (breaking.has(name)) {
          if (cells > 0) text += ' ';
          else flush();
        }
        if (name === 'pre') preformatted++;
        const level = headingLevel(name);
        if (level > 0) styles.push(level);
        else if (name === 'li') styles.push(-1);
      },
      ontext(data) {
        if (skipping > 0) return;
        // Inside <pre> a line break is one (collapseSpaces keeps \n); elsewhere it is a space.
        text += preformatted > 0 ? data.replace(/\r\n?/g, '\n') : data.replace(/[\r\n]+/g, ' ');
      },
      onclosetag(name) {
        if (hidden.has(name)) {
          skipping = Math.max(0, skipping - 1);
          return;
        }
        if (skipping > 0) return;
        if (name === 'td' || name === 'th') cells = Math.max(0, cells - 1);
        else if (breaking.has(name)) {
          if (cells > 0) text += ' ';
          else flush();
        }
        if (name === 'pre') preformatted = Math.max(0, preformatted - 1);
        if (headingLevel(name) > 0 || name === 'li') styles.pop();
      },
    },
    { decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return blocks;
}
