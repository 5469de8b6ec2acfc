import { apiErrors } from './api-error.js';
import { JsonTooDeepError, parseJsonBody } from './json-body.js';

/**
 * A JSON body above this many bytes is read on a thread of the document pool
 * (parseJsonBodyOffLoop), not on the event loop: a 7 MB envelope whose
 * document is 5 MB of base64 took the loop ~25 ms quiet, and seconds under
 * load, to JSON-parse and decode. Below it (the common creation of a few
 * hundred KB) the trip to a thread would cost more than the parse.
 */
export const offLoopJsonAbove = 512 * 1024;

/** Where a decoded document sits in a parsed body: the keys from the root down. */
export type BodyPath = (string | number)[];

/**
 * A body parsed on a thread: the value as structured cloning gives it back
 * (a Buffer arrives as a plain Uint8Array, moved, not copied) and where the
 * decoded documents sit, so that this thread turns them back into Buffers
 * without walking the whole body.
 */
export interface ParsedJsonBody {
  body: unknown;
  documents: BodyPath[];
}

/**
 * A JSON request body as the sandbox reads it (parseJsonBody), or DocuSign's
 * INVALID_REQUEST_BODY: the one place that decides the answer to bad JSON,
 * on the event loop and on a thread alike.
 */
export function parseRequestJson(bytes: Buffer): unknown {
  try {
    return parseJsonBody(bytes);
  } catch (error) {
    throw apiErrors.invalidBody(error instanceof JsonTooDeepError ? error.message : 'The body is not valid JSON.');
  }
}

/** Values of `documentBase64` at least this long are decoded on the thread (as parseJsonBody lifts them). */
const DECODE_AT_LEAST = 1024;

/**
 * The thread's side: parses the body and decodes every `documentBase64` in
 * it, the ones parseJsonBody left as strings too (base64 with line breaks or
 * escapes), so that no document is decoded on the event loop. The same
 * bytes as `Buffer.from(value, 'base64')` where the route would have done it.
 */
export function parseJsonBodyOnThread(bytes: Buffer): ParsedJsonBody {
  const body = parseRequestJson(bytes);
  const documents: BodyPath[] = [];
  const visit = (value: unknown, path: BodyPath): void => {
    if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return;
    if (Array.isArray(value)) {
      value.forEach((item, i) => visit(item, [...path, i]));
      return;
    }
    const object = value as Record<string, unknown>;
    for (const key of Object.keys(object)) {
      const member = object[key];
      if (key === 'documentBase64' && typeof member === 'string' && member.length >= DECODE_AT_LEAST)
        object[key] = Buffer.from(member, 'base64');
      if (key === 'documentBase64' && Buffer.isBuffer(object[key])) documents.push([...path, key]);
      else visit(member, [...path, key]);
    }
  };
  visit(body, []);
  return { body, documents };
}

/** This thread's side: the body with its decoded documents as the Buffers the routes take (no copy). */
export function revivedJsonBody(parsed: ParsedJsonBody): unknown {
  for (const path of parsed.documents) {
    let parent = parsed.body as Record<string | number, unknown>;
    for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
    const key = path[path.length - 1]!;
    const bytes = parent[key] as Uint8Array;
    parent[key] = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }
  return parsed.body;
}
