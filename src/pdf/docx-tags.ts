/**
 * DocuSign's Document Generation tags (`{{Candidate_Name}}`, a table row's
 * `{{t:"TableRow", e:"Compensation_Package"}}`, `{{if …}}`/`{{endif}}`) as
 * they stand in a DOCX part's XML. Word keeps a paragraph's text in runs and
 * splits them where it likes (a spelling mark, an edit, a change of font):
 * `{{Candi` in one `<w:t>` and `date_Name}}` in the next. A tag is therefore
 * looked for in a paragraph's text joined from all its `<w:t>`, and each tag
 * remembers which stretches of which `<w:t>` it covers, so a merge can
 * replace it however it is split.
 */

/** One `<w:t>` of a part: where its text stands in the XML, and the text (entities decoded). */
export interface TextNode {
  /** Offset in the part's XML of the `<w:t` that opens the node. */
  readonly open: number;
  /** Offsets in the part's XML of the text between `<w:t …>` and `</w:t>`. */
  readonly start: number;
  readonly end: number;
  readonly text: string;
  /** Offset of the node's text in its paragraph's joined text. */
  readonly at: number;
}

/** A paragraph's text joined from its runs, with the table row it stands in. */
export interface ParagraphText {
  readonly nodes: readonly TextNode[];
  readonly text: string;
  /** Offsets in the part's XML of the `<w:tr>` element holding the paragraph, if any. */
  readonly row?: { readonly start: number; readonly end: number };
}

/** What a tag says. */
export type TagMeaning =
  | { kind: 'field'; name: string }
  | { kind: 'tableRow'; name: string }
  | { kind: 'condition'; word: 'if' | 'elseif' | 'else' | 'endif'; expression: string }
  | { kind: 'other' };

/** A tag found in a paragraph: where it is in the joined text, and what it says. */
export interface Tag {
  readonly paragraph: ParagraphText;
  /** Offsets in the paragraph's joined text, `{{` to `}}` included. */
  readonly from: number;
  readonly to: number;
  readonly meaning: TagMeaning;
}

// `<w:t>` and `<w:t xml:space="preserve">`, not `<w:tbl>`, `<w:tab/>`, `<w:tc>`; the end of a paragraph; a table row's ends.
const TOKENS = /<w:t(?:\s[^>]*)?>([^<]*)<\/w:t>|<\/w:p>|<w:tr(?=[\s>])[^>]*>|<\/w:tr>/g;

/** The paragraphs of a part (word/document.xml, a header or footer) with their joined text. */
export function paragraphsOf(xml: string): ParagraphText[] {
  const paragraphs: ParagraphText[] = [];
  let nodes: TextNode[] = [];
  let text = '';
  // Rows may nest (a table in a cell): a stack of open rows; a paragraph belongs to the innermost.
  const rows: Array<{ start: number; end: number; paragraphs: Array<{ row?: { start: number; end: number } }> }> = [];
  const close = () => {
    if (nodes.length === 0) return;
    const paragraph: { nodes: TextNode[]; text: string; row?: { start: number; end: number } } = { nodes, text };
    rows.at(-1)?.paragraphs.push(paragraph);
    paragraphs.push(paragraph);
    nodes = [];
    text = '';
  };
  for (const match of xml.matchAll(TOKENS)) {
    const token = match[0];
    if (match[1] !== undefined) {
      const start = match.index + token.indexOf('>') + 1;
      const decoded = decodeXmlText(match[1]);
      nodes.push({ open: match.index, start, end: start + match[1].length, text: decoded, at: text.length });
      text += decoded;
    } else if (token === '</w:p>') close();
    else if (token === '</w:tr>') {
      close();
      const row = rows.pop();
      if (row) {
        row.end = match.index + token.length;
        for (const p of row.paragraphs) p.row = { start: row.start, end: row.end };
      }
    } else rows.push({ start: match.index, end: -1, paragraphs: [] });
  }
  close();
  return paragraphs;
}

/** Every tag of the paragraphs, in order. An unclosed `{{` is no tag (DocuSign leaves it as text too). */
export function tagsOf(paragraphs: readonly ParagraphText[]): Tag[] {
  const tags: Tag[] = [];
  for (const paragraph of paragraphs) {
    for (const match of paragraph.text.matchAll(/\{\{([\s\S]*?)\}\}/g)) {
      tags.push({
        paragraph,
        from: match.index,
        to: match.index + match[0].length,
        meaning: meaningOf(match[1]!),
      });
    }
  }
  return tags;
}

// Word turns straight quotes into curly ones as the author types: both are read.
const QUOTE = `["\u201c\u201d\u2018\u2019']`;
const TABLE_ROW = new RegExp(
  `^t\\s*:\\s*${QUOTE}TableRow${QUOTE}\\s*,\\s*e\\s*:\\s*${QUOTE}([^"\u201c\u201d\u2018\u2019']+)${QUOTE}$`,
  'i',
);
const NAME = /^[\p{L}_][\p{L}\p{N}_]*$/u;

/** What the text between `{{` and `}}` says. */
export function meaningOf(inner: string): TagMeaning {
  const text = inner.trim();
  const table = TABLE_ROW.exec(text);
  if (table) return { kind: 'tableRow', name: table[1]!.trim() };
  const condition = /^(if|elseif|else|endif)\b\s*([\s\S]*)$/i.exec(text);
  if (condition)
    return {
      kind: 'condition',
      word: condition[1]!.toLowerCase() as 'if' | 'elseif' | 'else' | 'endif',
      expression: condition[2]!.trim(),
    };
  if (NAME.test(text)) return { kind: 'field', name: text };
  return { kind: 'other' };
}

/** XML text content as characters: the five predefined entities and character references. */
export function decodeXmlText(raw: string): string {
  return raw.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (whole, entity: string) => {
    if (entity === 'amp') return '&';
    if (entity === 'lt') return '<';
    if (entity === 'gt') return '>';
    if (entity === 'quot') return '"';
    if (entity === 'apos') return "'";
    const code = entity.startsWith('#x') ? parseInt(entity.slice(2), 16) : parseInt(entity.slice(1), 10);
    return Number.isFinite(code) && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

/** Characters as XML text content. */
export function encodeXmlText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}
