import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';

/** Bodies up to this size are joined into one reused buffer; larger ones get their own. */
const REUSED_UP_TO = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(256 * 1024);

/** How a body above a size is read instead: its bytes in an ArrayBuffer of their own, given up to `use`. */
export interface LargeBody<T> {
  /** Bodies of more bytes than this take this way. */
  above: number;
  /** Takes the bytes (they may be moved to another thread) and gives the result later. */
  use: (bytes: Uint8Array) => Promise<T>;
}

/**
 * Reads a request body and hands its bytes to `use`, synchronously, in a
 * buffer that is reused by the next request: `use` must copy what it keeps
 * (parseJsonBody does: its results are new strings and buffers). A body
 * above `large.above` goes to `large.use` instead, in a buffer of its own,
 * filled as its chunks come when Content-Length says its size (no list of
 * chunks joined at the end: the event loop copies each chunk once).
 *
 * Why not fastify's `parseAs: 'buffer'`: it joins the chunks into a new
 * buffer per request, and on the envelope-creation benchmark those 137 KB
 * ArrayBuffers were a third of the external memory that made V8 run a full
 * mark-compact every ~0.2 s (10-28 ms pauses, the p99). Same checks as
 * fastify: the body limit (413 via FST_ERR_CTP_BODY_TOO_LARGE, before
 * reading when Content-Length says so) and Content-Length against what came.
 */
export function withBodyBytes<T>(
  payload: Readable,
  headers: { 'content-length'?: string | undefined },
  limit: number,
  use: (bytes: Buffer) => T,
  done: (error: Error | null, result?: T) => void,
  large?: LargeBody<T>,
): void {
  const declared = Number(headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const chunks: Buffer[] = [];
  // A large body of known size: its own buffer from the start.
  const own = large !== undefined && declared > large.above ? new Uint8Array(declared) : undefined;
  let received = 0;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limit || (own !== undefined && received > own.length)) {
      stop();
      done(
        received > limit
          ? new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE()
          : new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH(),
      );
      return;
    }
    if (own !== undefined) own.set(bytes, received - bytes.length);
    else chunks.push(bytes);
  };
  const onEnd = (error?: Error) => {
    stop();
    if (error) {
      done(error);
      return;
    }
    if (!Number.isNaN(declared) && declared !== received) {
      done(new errorCodes.FST_ERR_CTP_INVALID_CONTENT_LENGTH());
      return;
    }
    if (large !== undefined && received > large.above) {
      const whole = own ?? joined(chunks, received);
      large.use(whole).then(
        (result) => done(null, result),
        (cause: Error) => done(cause),
      );
      return;
    }
    let bytes: Buffer;
    if (chunks.length === 1) bytes = chunks[0]!;
    else if (received > REUSED_UP_TO) bytes = Buffer.concat(chunks, received);
    else {
      if (scratch.length < received) scratch = Buffer.allocUnsafe(Math.max(received, scratch.length * 2));
      let at = 0;
      for (const chunk of chunks) at += chunk.copy(scratch, at);
      bytes = scratch.subarray(0, received);
    }
    let result: T;
    try {
      result = use(bytes);
    } catch (cause) {
      done(cause as Error);
      return;
    }
    done(null, result);
  };
  function stop() {
    payload.removeListener('data', onData);
    payload.removeListener('end', onEnd);
    payload.removeListener('error', onEnd);
  }
  payload.on('data', onData);
  payload.on('end', onEnd);
  payload.on('error', onEnd);
  payload.resume();
}

/** Chunks joined into an ArrayBuffer of their own (never Node's shared pool: it may be moved to a thread). */
function joined(chunks: Buffer[], length: number): Uint8Array {
  const whole = new Uint8Array(length);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.length;
  }
  return whole;
}
