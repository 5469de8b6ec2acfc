import { errorCatalogue, type ErrorCode } from '../errors/catalogue.js';
import type { Diagnostic } from './model.js';
import type { SourceText } from './source-text.js';

/** Where a diagnostic points: a file as shown to the user, and a 1-based line and column. */
export interface Place {
  file: string;
  line: number;
  column: number;
}

/**
 * Collects diagnostics, adding the excerpt (the source line) and the
 * catalogue's hint, and dropping exact repeats (a mistake in a forEach
 * envelope would otherwise be reported once per row).
 */
export class DiagnosticSink {
  readonly errors: Diagnostic[] = [];
  readonly warnings: Diagnostic[] = [];
  readonly #sources = new Map<string, SourceText>();
  readonly #seen = new Set<string>();

  /** Registers a file's text so its lines can be quoted. */
  addSource(file: string, source: SourceText): void {
    this.#sources.set(file, source);
  }

  add(
    code: ErrorCode,
    message: string,
    place: Place,
    options: { field?: string; severity?: 'error' | 'warning'; redactExcerpt?: boolean; hint?: string } = {},
  ): void {
    const id = `${code}|${place.file}|${place.line}|${place.column}|${message}`;
    if (this.#seen.has(id)) return;
    this.#seen.add(id);
    let excerpt = this.#sources.get(place.file)?.line(place.line);
    // A literal password must not be repeated on screen, nor in CI logs.
    if (excerpt !== undefined && options.redactExcerpt) excerpt = excerpt.replace(/(:\s*).*$/, '$1[redacted]');
    const diagnostic: Diagnostic = {
      code,
      severity: options.severity ?? 'error',
      message,
      file: place.file,
      line: place.line,
      column: place.column,
      ...(options.field ? { field: options.field } : {}),
      ...(excerpt !== undefined ? { excerpt: excerpt.length > 200 ? `${excerpt.slice(0, 200)}…` : excerpt } : {}),
      hint: options.hint ?? errorCatalogue[code].hint,
    };
    (diagnostic.severity === 'error' ? this.errors : this.warnings).push(diagnostic);
  }

  get errorCount(): number {
    return this.errors.length;
  }
}
