import { readFileSync } from 'node:fs';
import { parseJobYaml, type Locator, type NodePath } from './job-yaml.js';
import type { ResolvedEnvelope, SourcePosition } from './model.js';

/** First segment of a path written from the job file's root rather than from an envelope's entry. */
export const fromFileRoot = '/';

/** Where something of an envelope is written: its job file (absolute), line and column, and that line's text. */
export interface WrittenPlace extends SourcePosition {
  excerpt?: string;
}

interface ParsedFile {
  locator?: Locator;
  lines: string[];
  /** `line:column` of each envelope entry → its index under `envelopes`. */
  envelopes: Map<string, number>;
}

/**
 * Finds where a part of a resolved envelope is written in its job file, for
 * diagnostics found after loading (the preview's warnings name the tab's
 * line). The resolved model keeps each envelope's own place and each
 * recipient's and tab's path (`written`), not their lines: the job file is
 * parsed again here, once per file. Falls back to the envelope's place when
 * the file cannot be read again.
 */
export class WrittenPlaces {
  readonly #files = new Map<string, ParsedFile>();

  /**
   * The place of `path`: from the envelope (`[...recipient.written,
   * ...tab.written]`), or from the job file's root when it starts with
   * {@link fromFileRoot} (a tab an envelope takes from a template of its file).
   */
  of(envelope: ResolvedEnvelope, path: NodePath): WrittenPlace {
    const file = this.#parsed(envelope.source.file);
    const index = file.envelopes.get(`${envelope.source.line}:${envelope.source.column}`);
    const rooted = path[0] === fromFileRoot;
    const at =
      file.locator === undefined || (index === undefined && !rooted)
        ? { line: envelope.source.line, column: envelope.source.column }
        : file.locator.locate(rooted ? path.slice(1) : ['envelopes', index!, ...path]);
    const excerpt = file.lines[at.line - 1];
    return { file: envelope.source.file, ...at, ...(excerpt === undefined ? {} : { excerpt }) };
  }

  #parsed(path: string): ParsedFile {
    let parsed = this.#files.get(path);
    if (parsed !== undefined) return parsed;
    parsed = { lines: [], envelopes: new Map() };
    try {
      const text = readFileSync(path, 'utf8');
      const yaml = parseJobYaml(text);
      parsed.lines = text.split(/\r?\n/);
      if (yaml.ok) {
        parsed.locator = yaml.locator;
        const envelopes = (yaml.value as { envelopes?: unknown }).envelopes;
        const count = Array.isArray(envelopes) ? envelopes.length : 0;
        for (let i = 0; i < count; i++) {
          const at = yaml.locator.locate(['envelopes', i]);
          parsed.envelopes.set(`${at.line}:${at.column}`, i);
        }
      }
    } catch {
      // Unreadable now: places fall back to the envelope's own.
    }
    this.#files.set(path, parsed);
    return parsed;
  }
}
