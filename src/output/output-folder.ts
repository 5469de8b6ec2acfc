import path from 'node:path';
import type { Readable } from 'node:stream';
import { SignrunError } from '../errors/signrun-error.js';
import { writeFileAtomic, writeStreamAtomic, type ContentDigest } from './atomic-write.js';

/** A file written under the output folder, as the report lists it. */
export interface FileRecord extends ContentDigest {
  /** Relative to the output folder, with `/` separators. */
  path: string;
}

/** Options of a write. */
export interface WriteOptions {
  /** File mode. Default 0o644; signing.json uses 0o600. */
  mode?: number;
}

/**
 * The one writer of run outputs: every file goes under `root`, atomically
 * (temp + rename); a path that would land outside is refused
 * (SR_OUTPUT_OUTSIDE) before anything is written.
 */
export class OutputFolder {
  readonly root: string;

  constructor(root: string) {
    this.root = path.resolve(root);
  }

  /** Absolute path of `relative`, refused when it leaves the folder. */
  resolve(relative: string): string {
    const target = path.resolve(this.root, relative);
    const rel = path.relative(this.root, target);
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) {
      throw new SignrunError(
        'SR_OUTPUT_OUTSIDE',
        `refusing to write ${JSON.stringify(relative)}: it is outside the output folder ${this.root}`,
        {
          details: { path: relative },
        },
      );
    }
    return target;
  }

  /** The relative, `/`-separated form of a path built from parts (job, key, file name). */
  join(...parts: string[]): string {
    for (const part of parts) {
      if (part === '' || part === '.' || part === '..' || /[\\/\0]/.test(part)) {
        throw new SignrunError(
          'SR_OUTPUT_OUTSIDE',
          `refusing the path segment ${JSON.stringify(part)}: it is not a plain folder or file name`,
          {
            details: { segment: part },
          },
        );
      }
    }
    return parts.join('/');
  }

  async writeFile(relative: string, data: string | Uint8Array, options: WriteOptions = {}): Promise<FileRecord> {
    const target = this.resolve(relative);
    try {
      return { path: relative, ...(await writeFileAtomic(target, data, options.mode)) };
    } catch (error) {
      throw wrapWriteError(relative, error);
    }
  }

  async writeJson(relative: string, value: unknown, options: WriteOptions = {}): Promise<FileRecord> {
    return this.writeFile(relative, `${JSON.stringify(value, null, 2)}\n`, options);
  }

  /** Streams a body to disk; errors of the body itself (a broken download) pass through unchanged. */
  async writeStream(relative: string, body: Readable, options: WriteOptions = {}): Promise<FileRecord> {
    const target = this.resolve(relative);
    return { path: relative, ...(await writeStreamAtomic(target, body, options.mode)) };
  }
}

function wrapWriteError(relative: string, error: unknown): SignrunError {
  if (error instanceof SignrunError) return error;
  const code = (error as { code?: string }).code;
  return new SignrunError(
    'SR_OUTPUT_WRITE',
    `could not write ${relative}: ${code ?? (error instanceof Error ? error.message : String(error))}`,
    { cause: error },
  );
}

/** A file name safe on every system, from a document name the service gave (`offer letter.pdf` → `offer-letter.pdf`). */
export function safeFileName(name: string): string {
  const cleaned = name
    .normalize('NFKD')
    .replace(/[^\w.-]+/g, '-')
    .replace(/^[.-]+/, '')
    .replace(/-+/g, '-')
    .slice(0, 120);
  return cleaned === '' ? 'document' : cleaned;
}
