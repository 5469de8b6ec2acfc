import { readFile, stat } from 'node:fs/promises';
import type { ErrorCode } from '../errors/catalogue.js';

/** A text file read whole, with its lines kept for excerpts. */
export interface SourceText {
  text: string;
  /** Line n (1-based) is lines[n - 1]. Split lazily: most files never need an excerpt. */
  line(n: number): string | undefined;
}

export type ReadTextResult = { ok: true; source: SourceText } | { ok: false; code: ErrorCode; message: string };

const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Reads a UTF-8 text file, refusing files over `maxBytes` (checked before
 * reading, so a huge file costs nothing) and binary content (a NUL byte or an
 * invalid UTF-8 sequence), so that junk ends in a coded error and never in a
 * parser's stack trace.
 */
export async function readSourceText(path: string, maxBytes: number, what: string): Promise<ReadTextResult> {
  let size: number;
  try {
    const info = await stat(path);
    if (!info.isFile()) return { ok: false, code: 'SR_FILE_UNREADABLE', message: `${what} is not a regular file` };
    size = info.size;
  } catch (error) {
    return { ok: false, code: 'SR_FILE_UNREADABLE', message: `${what} cannot be read (${codeOf(error)})` };
  }
  if (size > maxBytes) {
    return {
      ok: false,
      code: 'SR_FILE_TOO_LARGE',
      message: `${what} is ${formatBytes(size)}; the limit is ${formatBytes(maxBytes)}`,
    };
  }
  let bytes: Buffer;
  try {
    bytes = await readFile(path);
  } catch (error) {
    return { ok: false, code: 'SR_FILE_UNREADABLE', message: `${what} cannot be read (${codeOf(error)})` };
  }
  if (bytes.includes(0))
    return { ok: false, code: 'SR_FILE_NOT_TEXT', message: `${what} contains binary data (a NUL byte)` };
  let text: string;
  try {
    text = utf8.decode(bytes);
  } catch {
    return { ok: false, code: 'SR_FILE_NOT_TEXT', message: `${what} is not valid UTF-8 text` };
  }
  if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
  return { ok: true, source: sourceText(text) };
}

/** Wraps text already in memory. */
export function sourceText(text: string): SourceText {
  let lines: string[] | undefined;
  return {
    text,
    line(n) {
      lines ??= text.split(/\r?\n/);
      return lines[n - 1];
    },
  };
}

function codeOf(error: unknown): string {
  return (error as NodeJS.ErrnoException | undefined)?.code ?? 'unknown error';
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024) return `${(bytes / (1024 * 1024)).toFixed(1)} MiB`;
  if (bytes >= 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${bytes} bytes`;
}
