import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { docGenFieldText } from '../envelope/docgen-format.js';
import type { DocGenFormField } from '../envelope/docgen-fields.js';
import { docxBudget, MERGED_PART, mergedParts } from './docx-merge-fields.js';
import { encodeXmlText, paragraphsOf, tagsOf, type Tag } from './docx-tags.js';
import type { ZipBudget } from './zip-budget.js';

/**
 * The generated document of a DocGen DOCX, as DocuSign makes it when the
 * envelope is sent: each `{{Field}}` replaced by its value (formatted by its
 * `format`), a table row repeated once per entry of its `rowValues` (none:
 * the row goes), `{{if …}}` branches kept or dropped, and the tags themselves
 * gone. Only the text of runs changes (a value takes the look of the run the
 * field begins in): styles, tables, images and every other part stay byte
 * for byte. A field without a value becomes empty (whether one may be is
 * decided before: validate, the sandbox's send).
 */
export function mergeDocx(
  bytes: Uint8Array,
  fields: readonly DocGenFormField[],
  budget: ZipBudget = docxBudget,
): Uint8Array {
  const merged = new Map<string, string>();
  for (const [name, xml] of mergedParts(bytes, budget)) merged.set(name, mergePart(xml, fields));
  // The budget was checked by mergedParts: unpacking the rest is bounded by it.
  const files = unzipSync(bytes);
  const out: Zippable = {};
  for (const [name, data] of Object.entries(files))
    out[name] = MERGED_PART.test(name) && merged.has(name) ? strToU8(merged.get(name)!) : data;
  return zipSync(out, { level: 6, mtime: new Date('1980-01-01T00:00:00Z') });
}

/** One part merged: table rows first (each copy merged with its row's fields), then the rest. */
export function mergePart(xml: string, fields: readonly DocGenFormField[]): string {
  const byName = new Map(fields.map((f) => [f.name, f]));
  let text = xml;
  // One table row at a time: its copies hold no TableRow tag any more, so this ends.
  for (;;) {
    const tag = tagsOf(paragraphsOf(text)).find((t) => t.meaning.kind === 'tableRow' && t.paragraph.row);
    if (!tag || tag.meaning.kind !== 'tableRow') break;
    const row = tag.paragraph.row!;
    const rowXml = text.slice(row.start, row.end);
    const rows = byName.get(tag.meaning.name)?.rowValues ?? [];
    // A row's own fields first, then the document's (a condition in a row may read either).
    const copies = rows.map((r) => replaceTags(rowXml, [...r.docGenFormFieldList, ...fields]));
    text = text.slice(0, row.start) + copies.join('') + text.slice(row.end);
  }
  return replaceTags(text, fields);
}

/** An edit of a part's text: [from, to) of the joined text of all its runs, replaced by `text`. */
interface Edit {
  from: number;
  to: number;
  text: string;
}

/** Replaces the tags of a piece of XML: fields by their values, conditions by the branch they keep. */
function replaceTags(xml: string, fields: readonly DocGenFormField[]): string {
  const byName = new Map<string, DocGenFormField>();
  for (const f of fields) if (!byName.has(f.name)) byName.set(f.name, f);
  const paragraphs = paragraphsOf(xml);
  // The part's runs as one stream: a condition may open in one paragraph and close in another.
  const base = new Map<object, number>();
  let length = 0;
  for (const p of paragraphs) {
    base.set(p, length);
    length += p.text.length;
  }
  const at = (tag: Tag) => ({ from: base.get(tag.paragraph)! + tag.from, to: base.get(tag.paragraph)! + tag.to });
  const edits: Edit[] = [];
  // Open conditions: whether the enclosing branch is kept, whether a branch of this block was taken, the current branch.
  const blocks: Array<{ outerKept: boolean; taken: boolean; kept: boolean; contentFrom: number }> = [];
  const kept = () => blocks.at(-1)?.kept ?? true;
  const closeBranch = (until: number) => {
    const block = blocks.at(-1)!;
    if (!block.kept) edits.push({ from: block.contentFrom, to: until, text: '' });
  };
  for (const tag of tagsOf(paragraphs)) {
    const { from, to } = at(tag);
    const meaning = tag.meaning;
    if (meaning.kind === 'field') {
      const field = byName.get(meaning.name);
      edits.push({ from, to, text: field ? docGenFieldText(field) : '' });
    } else if (meaning.kind === 'tableRow') edits.push({ from, to, text: '' });
    else if (meaning.kind === 'condition') {
      edits.push({ from, to, text: '' });
      if (meaning.word === 'if') {
        const holds = conditionHolds(meaning.expression, byName);
        blocks.push({ outerKept: kept(), taken: holds, kept: kept() && holds, contentFrom: to });
      } else if (blocks.length > 0) {
        closeBranch(from);
        const block = blocks.at(-1)!;
        if (meaning.word === 'endif') blocks.pop();
        else {
          const holds = meaning.word === 'else' || conditionHolds(meaning.expression, byName);
          block.kept = block.outerKept && !block.taken && holds;
          block.taken ||= holds;
          block.contentFrom = to;
        }
      }
    }
  }
  // An if without endif runs to the end of the part.
  while (blocks.length > 0) {
    closeBranch(length);
    blocks.pop();
  }
  return applyEdits(xml, paragraphs, normalised(edits));
}

/** Sorted, and an edit inside a larger one dropped (a field in a dropped branch). */
function normalised(edits: Edit[]): Edit[] {
  edits.sort((a, b) => a.from - b.from || b.to - a.to);
  const out: Edit[] = [];
  let end = -1;
  for (const e of edits) {
    // An empty range (a dropped branch with nothing in it) changes nothing.
    if (e.from < end || e.from === e.to) continue;
    out.push(e);
    end = e.to;
  }
  return out;
}

/** The runs' new texts written into the XML; a run whose text changed keeps its spaces (xml:space="preserve"). */
function applyEdits(xml: string, paragraphs: ReturnType<typeof paragraphsOf>, edits: readonly Edit[]): string {
  const chunks: string[] = [];
  let copied = 0;
  let base = 0;
  let next = 0;
  for (const paragraph of paragraphs) {
    for (const node of paragraph.nodes) {
      const from = base + node.at;
      const to = from + node.text.length;
      while (next < edits.length && edits[next]!.to <= from) next++;
      let out = '';
      let pos = from;
      let changed = false;
      for (let i = next; i < edits.length && edits[i]!.from < to; i++) {
        const e = edits[i]!;
        changed = true;
        if (e.from > pos) out += node.text.slice(pos - from, e.from - from);
        // The value goes where its tag begins; the runs the tag runs on into lose their part of it.
        if (e.from >= from) out += e.text;
        pos = Math.min(e.to, to);
      }
      if (!changed) continue;
      out += node.text.slice(pos - from);
      chunks.push(xml.slice(copied, node.open), '<w:t xml:space="preserve">', encodeXmlText(out));
      copied = node.end;
    }
    base += paragraph.text.length;
  }
  chunks.push(xml.slice(copied));
  return chunks.join('');
}

/**
 * Whether `{{if …}}` holds: `Field = 'text'`, `!=`, `<`, `<=`, `>`, `>=`
 * against a quoted text or a number, the field optionally in
 * `$lowercase(…)` or `$uppercase(…)`. An expression signrun does not read
 * keeps its branch: text shown is better than text lost.
 */
export function conditionHolds(expression: string, fields: ReadonlyMap<string, DocGenFormField>): boolean {
  const match =
    /^(?:\$(lowercase|uppercase)\(\s*)?([\p{L}_][\p{L}\p{N}_]*)\s*\)?\s*(=|==|!=|<>|<=|>=|<|>)\s*(?:["\u201c\u201d\u2018\u2019']([^"\u201c\u201d\u2018\u2019']*)["\u201c\u201d\u2018\u2019']|(-?\d+(?:\.\d+)?))\s*$/u.exec(
      expression.trim(),
    );
  if (!match) return true;
  const [, change, name, operator, quoted, numeric] = match;
  let value = fields.get(name!)?.value ?? '';
  if (change === 'lowercase') value = value.toLowerCase();
  if (change === 'uppercase') value = value.toUpperCase();
  const other = quoted ?? numeric!;
  const numbers = numeric !== undefined || (/^-?[\d,]+(?:\.\d+)?$/.test(value) && /^-?\d+(?:\.\d+)?$/.test(other));
  const compare = numbers
    ? Math.sign(Number(value.replace(/,/g, '')) - Number(other))
    : value.trim() === other.trim()
      ? 0
      : value.trim() < other.trim()
        ? -1
        : 1;
  switch (operator) {
    case '=':
    case '==':
      return compare === 0;
    case '!=':
    case '<>':
      return compare !== 0;
    case '<':
      return compare < 0;
    case '<=':
      return compare <= 0;
    case '>':
      return compare > 0;
    default:
      return compare >= 0;
  }
}
