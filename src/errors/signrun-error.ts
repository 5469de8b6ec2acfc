import { errorCatalogue, type ErrorCode } from './catalogue.js';

/** A place in a job file (or any text file) that a diagnostic points at. 1-based. */
export interface SourceLocation {
  file: string;
  line: number;
  column: number;
}

export interface SignrunErrorOptions {
  /** Where in the user's files the problem is, when it is in a file. */
  location?: SourceLocation;
  /** What to do next; defaults to the catalogue's hint for the code. */
  hint?: string;
  /** The underlying error. Must not carry secrets: redact before wrapping. */
  cause?: unknown;
  /** Extra machine-readable facts (never secrets), shown by `--format json`. */
  details?: Record<string, unknown>;
}

/**
 * Every error signrun reports on purpose. The code is stable (documented in
 * docs/errors.md, generated from the catalogue); the message is for people and
 * may change. The exit code comes from the catalogue so that one table decides
 * how the CLI ends.
 */
export class SignrunError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: number;
  readonly hint: string | undefined;
  readonly location: SourceLocation | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(code: ErrorCode, message: string, options: SignrunErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SignrunError';
    this.code = code;
    this.exitCode = errorCatalogue[code].exitCode;
    this.hint = options.hint ?? errorCatalogue[code].hint;
    this.location = options.location;
    this.details = options.details;
  }
}

export function isSignrunError(value: unknown): value is SignrunError {
  return value instanceof SignrunError;
}
