import { isAlias, isMap, isScalar, isSeq, LineCounter, parseDocument, visit, type Document, type Node } from 'yaml';
import type { ErrorCode } from '../errors/catalogue.js';
import { limits } from './limits.js';

/** A path into the YAML document: map keys and list indexes. */
export type NodePath = ReadonlyArray<string | number>;

/**
 * yaml reports a badly indented line at its column 1. Points instead at the
 * text that is out of line, and says by how much, against the nearest line
 * above that is indented less or as much (its parent or sibling).
 */
function indentationProblem(text: string, at: LineColumn, message: string): LineColumn & { message: string } {
  const lines = text.split(/\r?\n/);
  const overIndented = overIndentedNext(lines, at, message);
  if (overIndented) return overIndented;
  const line = lines[at.line - 1] ?? '';
  const indent = /^ */.exec(line)?.[0].length ?? 0;
  if (at.column !== 1 || indent === 0 || line.trim() === '') return { ...at, message };
  const above = lines
    .slice(0, at.line - 1)
    .reverse()
    .find((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  const aboveIndent = above === undefined ? 0 : (/^ */.exec(above)?.[0].length ?? 0);
  const key = line.trim().split(/[:\s]/)[0] ?? '';
  return {
    line: at.line,
    column: indent + 1,
    message: `${key ? `"${key}" ` : ''}is indented ${indent} space${indent === 1 ? '' : 's'}, the line above ${aboveIndent}: indent it as its siblings (${message})`,
  };
}

/**
 * The parser's "compact mapping" complaints point at the value of a key
 * (`- name: A`) when the slip is the next line, indented one space too far
 * (`   email: …` under `name`): that line is the one to fix, and it is said
 * so, with the indentation of its sibling.
 */
function overIndentedNext(
  lines: readonly string[],
  at: LineColumn,
  message: string,
): (LineColumn & { message: string }) | undefined {
  if (!/compact mappings|Implicit keys need to be on a single line/.test(message)) return undefined;
  const line = lines[at.line - 1] ?? '';
  // The column of the key on the reported line, after a list's "- " if any.
  const sibling = /^( *)(?:- +)?/.exec(line)?.[0].length ?? 0;
  const nextIndex = lines.findIndex((l, i) => i >= at.line && l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (nextIndex < 0) return undefined;
  const next = lines[nextIndex]!;
  const indent = /^ */.exec(next)?.[0].length ?? 0;
  if (indent <= sibling) return undefined;
  const key = next.trim().split(/[:\s]/)[0] ?? '';
  return {
    line: nextIndex + 1,
    column: indent + 1,
    message: `${key ? `"${key}" ` : ''}is indented ${indent} spaces, its sibling on the line above ${sibling}: indent it as its siblings`,
  };
}

/** 1-based line and column. */
export interface LineColumn {
  line: number;
  column: number;
}

/** Finds where a path of the parsed job file is written. */
export interface Locator {
  /**
   * Position of the value at `path`, or of its key when `at` is `key`.
   * A path that does not exist (a missing field) resolves to its deepest existing parent.
   */
  locate(path: NodePath, at?: 'value' | 'key'): LineColumn;
}

export interface YamlProblem extends LineColumn {
  code: ErrorCode;
  message: string;
}

export type ParsedYaml = { ok: true; value: unknown; locator: Locator } | { ok: false; problems: YamlProblem[] };

/** V8's message for a RangeError of the call stack. */
const STACK_OVERFLOW = /Maximum call stack size exceeded/;

/**
 * Parses a job file keeping source positions (yaml's Document + LineCounter),
 * with the defences of docs/job-files.md "Limits": aliases are capped
 * (maxAliasCount), nesting is capped, duplicate keys are errors.
 */
export function parseJobYaml(text: string): ParsedYaml {
  const lineCounter = new LineCounter();
  let doc: Document.Parsed;
  try {
    doc = parseDocument(text, { lineCounter, uniqueKeys: true, prettyErrors: false, strict: true });
  } catch (error) {
    // The parser recurses on flow collections: very deep `[[[[…` ends here.
    if (error instanceof RangeError)
      return {
        ok: false,
        problems: [{ code: 'SR_YAML_TOO_DEEP', message: 'the YAML is nested too deeply to parse', line: 1, column: 1 }],
      };
    throw error;
  }
  const at = (offset: number): LineColumn => {
    const pos = lineCounter.linePos(offset);
    return { line: pos.line, column: pos.col };
  };
  if (doc.errors.length > 0) {
    // The parser recurses on nesting, block or flow; it catches its own stack
    // overflow and reports it as an error of the document.
    const overflow = doc.errors.find((e) => STACK_OVERFLOW.test(e.message));
    if (overflow) {
      return {
        ok: false,
        problems: [
          {
            code: 'SR_YAML_TOO_DEEP',
            message: `the YAML is nested too deeply to parse (a job file is at most ${limits.yamlDepth} levels deep)`,
            ...at(overflow.pos[0]),
          },
        ],
      };
    }
    // After a syntax error the parser's next complaints follow from it (and may
    // contradict it): the first is where the slip is. Duplicate keys are each their own.
    const syntax = doc.errors.find((e) => e.code !== 'DUPLICATE_KEY');
    const errors = doc.errors.filter((e) => e.code === 'DUPLICATE_KEY' || e === syntax);
    return {
      ok: false,
      problems: errors.map((e) => ({
        code: e.code === 'DUPLICATE_KEY' ? 'SR_YAML_DUPLICATE_KEY' : 'SR_YAML_SYNTAX',
        ...indentationProblem(text, at(e.pos[0]), firstLine(e.message)),
      })),
    };
  }
  const depth = nestingDepth(doc.contents);
  if (depth.tooDeep) {
    return {
      ok: false,
      problems: [
        {
          code: 'SR_YAML_TOO_DEEP',
          message: `the document is nested more than ${limits.yamlDepth} levels deep`,
          ...at(depth.offset),
        },
      ],
    };
  }
  let value: unknown;
  try {
    value = doc.toJS({ maxAliasCount: limits.yamlAliases });
  } catch (error) {
    if (error instanceof ReferenceError || error instanceof RangeError) {
      return {
        ok: false,
        problems: [
          {
            code: 'SR_YAML_ALIAS_LIMIT',
            message: `aliases expand to too many nodes (limit ${limits.yamlAliases})`,
            ...at(firstAliasOffset(doc)),
          },
        ],
      };
    }
    throw error;
  }
  const locator: Locator = {
    locate(path, where = 'value') {
      let node: unknown = doc.contents;
      let offset = rangeStart(node) ?? 0;
      for (let i = 0; i < path.length; i++) {
        const segment = path[i];
        if (isAlias(node)) node = node.resolve(doc);
        let next: unknown;
        let keyOffset: number | undefined;
        if (isMap(node)) {
          const pair = node.items.find((p) => (isScalar(p.key) ? String(p.key.value) : p.key) === segment);
          if (pair) {
            keyOffset = rangeStart(pair.key);
            next = pair.value;
          }
        } else if (isSeq(node) && typeof segment === 'number') {
          next = node.items[segment];
        }
        if (next === undefined && keyOffset === undefined) break;
        if (i === path.length - 1 && where === 'key' && keyOffset !== undefined) return at(keyOffset);
        offset = rangeStart(next) ?? keyOffset ?? offset;
        node = next;
      }
      return at(offset);
    },
  };
  return { ok: true, value, locator };
}

function rangeStart(node: unknown): number | undefined {
  const range = (node as { range?: [number, number, number] } | null | undefined)?.range;
  return range?.[0];
}

function firstLine(message: string): string {
  // yaml's messages end with " at line L, column C:" and an excerpt; the diagnostic carries both already.
  return message.split('\n')[0]!.replace(/ at line \d+, column \d+:?$/, '');
}

/** Iterative, so that depth itself cannot overflow the stack. */
function nestingDepth(root: Node | null): { tooDeep: boolean; offset: number } {
  const stack: Array<[unknown, number]> = [[root, 1]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > limits.yamlDepth) return { tooDeep: true, offset: rangeStart(node) ?? 0 };
    if (isMap(node)) for (const pair of node.items) stack.push([pair.value, depth + 1]);
    else if (isSeq(node)) for (const item of node.items) stack.push([item, depth + 1]);
  }
  return { tooDeep: false, offset: 0 };
}

function firstAliasOffset(doc: Document.Parsed): number {
  let offset = 0;
  visit(doc, {
    Alias(_key, node) {
      offset = node.range?.[0] ?? 0;
      return visit.BREAK;
    },
  });
  return offset;
}
