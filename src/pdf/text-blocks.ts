/**
 * A block of a document's text as the rendition lays it out: a heading
 * (level 1 to 6), a paragraph or a list item. `text` has its spaces
 * collapsed; a `\n` in it is a line break the document asked for (`<br>`,
 * a line of a TXT paragraph).
 */
export interface TextBlock {
  readonly kind: 'heading' | 'paragraph' | 'item';
  /** 1–6 for a heading, 0 otherwise. */
  readonly level: number;
  readonly text: string;
}

/**
 * Collapses runs of spaces, tabs and other whitespace (but line breaks) to
 * one space, and drops control characters, which no font draws. Keeps `\n`.
 */
export function collapseSpaces(text: string): string {
  return text
    .replace(/\p{Cc}/gu, (c) => (c === '\n' ? c : /\s/.test(c) ? ' ' : ''))
    .replace(/[^\S\n]+/g, ' ')
    .replace(/ ?\n ?/g, '\n');
}

/**
 * The blocks of a plain text file (UTF-8, a byte-order mark skipped): a
 * paragraph per run of lines between blank lines, each line kept as it is
 * (a line break), spaces collapsed as everywhere in the rendition.
 */
export function plainTextBlocks(bytes: Uint8Array): TextBlock[] {
  const text = new TextDecoder('utf-8').decode(bytes).replace(/\r\n?/g, '\n');
  const blocks: TextBlock[] = [];
  for (const paragraph of text.split(/\n[^\S\n]*\n\s*/)) {
    const lines = collapseSpaces(paragraph).trim();
    if (lines !== '') blocks.push({ kind: 'paragraph', level: 0, text: lines });
  }
  return blocks;
}
