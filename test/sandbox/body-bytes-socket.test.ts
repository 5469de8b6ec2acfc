import { createHash } from 'node:crypto';
import { createServer, request as httpRequest, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { withBodyBytes } from '../../src/sandbox/platform/http/body-bytes.js';

// The body reader's paths for a body that comes in many chunks (platform/http/
// body-bytes.ts): chunks joined into the reused buffer (up to 4 MiB), a body
// over 4 MiB in a buffer of its own, and a large body handed on (to the
// document pool in the sandbox) filled as it comes, its size declared or not.
// inject() hands a body over in one chunk, so these are reached only through
// a socket: the client here writes each chunk after the server has read the
// one before, so that every chunk arrives on its own.

const LIMIT = 32 * 1024 * 1024;
const LARGE_ABOVE = 1024 * 1024;

/** What the server read: the bytes' digest and length, and how many chunks they came in. */
interface Read {
  sha256: string;
  length: number;
  chunks: number;
}

let server: Server;
let origin: string;
/** The server's side of the barrier: called with each chunk's size as it is read. */
let onChunk: (size: number) => void = () => {};

const digest = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

function readBody(request: IncomingMessage, large: boolean): Promise<Read> {
  let chunks = 0;
  request.on('data', (chunk: Buffer) => {
    chunks++;
    onChunk(chunk.length);
  });
  return new Promise((resolve, reject) => {
    withBodyBytes<{ sha256: string; length: number }>(
      request,
      request.headers,
      LIMIT,
      // The reused buffer is read while it holds this body: the digest is taken now.
      (bytes) => ({ sha256: digest(bytes), length: bytes.length }),
      (error, result) => (error ? reject(error) : resolve({ ...result!, chunks })),
      large
        ? { above: LARGE_ABOVE, use: (bytes) => Promise.resolve({ sha256: digest(bytes), length: bytes.length }) }
        : undefined,
    );
  });
}

beforeAll(async () => {
  server = createServer((request, response) => {
    readBody(request, request.url === '/large').then(
      (read) => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(read)),
      (error: Error) => response.writeHead(400).end(error.message),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** Bytes that differ from one position to the next (a dropped or repeated byte changes the digest). */
function patterned(length: number): Buffer {
  const bytes = Buffer.alloc(length);
  for (let i = 0; i < length; i++) bytes[i] = (i * 31 + (i >>> 8)) & 0xff;
  return bytes;
}

/**
 * Sends `body` in chunks of `chunk` bytes, each written once the server has
 * read everything before it (the barrier is the server's data listener), with
 * Content-Length or chunked transfer encoding.
 */
async function send(path: string, body: Buffer, chunk: number, declared: boolean): Promise<Read & { status: number }> {
  let read = 0;
  let waiting: { until: number; resolve: () => void } | undefined;
  onChunk = (size) => {
    read += size;
    if (waiting !== undefined && read >= waiting.until) waiting.resolve();
  };
  const readUpTo = (until: number) =>
    read >= until ? Promise.resolve() : new Promise<void>((resolve) => (waiting = { until, resolve }));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      `${origin}${path}`,
      { method: 'POST', headers: declared ? { 'content-length': String(body.length) } : {} },
      (response) => {
        const parts: Buffer[] = [];
        response.on('data', (part: Buffer) => parts.push(part));
        response.on('end', () => {
          const text = Buffer.concat(parts).toString('utf8');
          if (response.statusCode !== 200) reject(new Error(`${response.statusCode}: ${text}`));
          else resolve({ status: response.statusCode, ...(JSON.parse(text) as Read) });
        });
      },
    );
    request.on('error', reject);
    void (async () => {
      for (let at = 0; at < body.length; at += chunk) {
        request.write(body.subarray(at, at + chunk));
        // Chunked encoding frames each write: the server reads the data only, so the count is of body bytes.
        await readUpTo(Math.min(at + chunk, body.length));
      }
      request.end();
    })().catch(reject);
  });
}

describe('a body read from a socket in many chunks', () => {
  it('arrives whole through the reused buffer, a larger body after a smaller one and a smaller after it', async () => {
    // 300 KB grows the reused buffer (256 KiB at first); then 70 KB reuses it, over the larger body's bytes.
    for (const [length, chunk] of [
      [300_000, 7_001],
      [70_000, 4_099],
      [1_000_000, 65_521],
    ] as const) {
      const body = patterned(length);
      const read = await send('/small', body, chunk, true);
      expect(read.chunks).toBeGreaterThan(1);
      expect(read).toMatchObject({ length, sha256: digest(body) });
    }
  });

  it('arrives whole in a buffer of its own when over 4 MiB', async () => {
    const body = patterned(5 * 1024 * 1024 + 3);
    const read = await send('/small', body, 262_139, true);
    expect(read.chunks).toBeGreaterThan(1);
    expect(read).toMatchObject({ length: body.length, sha256: digest(body) });
  });

  it('arrives whole when handed on as a large body, its size declared (filled as it comes) or not (joined)', async () => {
    const body = patterned(LARGE_ABOVE + 200_003);
    for (const declared of [true, false]) {
      const read = await send('/large', body, 65_519, declared);
      expect(read.chunks).toBeGreaterThan(1);
      expect(read).toMatchObject({ length: body.length, sha256: digest(body) });
    }
  });
});
