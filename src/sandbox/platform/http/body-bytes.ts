import type { Readable } from 'node:stream';
import { errorCodes } from 'fastify';

/** Bodies up to this size are joined into one reused buffer; larger ones get their own. */
const REUSED_UP_TO = 4 * 1024 * 1024;
let scratch = Buffer.allocUnsafe(256 * 1024);

/**
 * Reads a request body and hands its bytes to `use`, synchronously, in a
 * buffer that is reused by the next request: `use` must copy what it keeps
 * (parseJsonBody does: its results are new strings and buffers).
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
): void {
  const declared = Number(headers['content-length']);
  if (declared > limit) {
    done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
    return;
  }
  const chunks: Buffer[] = [];
  let received = 0;
  const onData = (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    received += bytes.length;
    if (received > limit) {
      stop();
      done(new errorCodes.FST_ERR_CTP_BODY_TOO_LARGE());
      return;
    }
    chunks.push(bytes);
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
