import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { listingPages } from '../../src/client/listing-pages.js';
import { checkedDownload, downloadCap, maxDownloadBytes } from '../../src/client/download-check.js';
import { isStatusRegression } from '../../src/envelope/statuses.js';
import type { EnvelopesInformation } from '../../src/envelope/wire.js';
import type { SignrunError } from '../../src/errors/signrun-error.js';

/** Issue 25: the one paging loop, the one download check and the one status order, as pure pieces. */
const page = (ids: number[], total: number): EnvelopesInformation => ({
  envelopes: ids.map((i) => ({ envelopeId: `e-${i}` })),
  totalSetSize: String(total),
});

async function walk(answer: (n: number) => EnvelopesInformation, limits = {}) {
  let calls = 0;
  const pages = listingPages<number>({
    what: 'a listing',
    first: 0,
    fetch: async (n) => {
      calls += 1;
      return answer(n);
    },
    next: (p, n) =>
      n + (p.envelopes?.length ?? 0) < Number(p.totalSetSize) ? n + (p.envelopes?.length ?? 0) : undefined,
    limits,
  });
  const seen: string[] = [];
  try {
    for await (const p of pages) seen.push(...(p.envelopes ?? []).map((e) => e.envelopeId));
    return { calls, seen, error: undefined };
  } catch (error) {
    return { calls, seen, error: error as SignrunError };
  }
}

describe('listingPages: one bounded loop for every listing', () => {
  it('walks an honest listing to its end', async () => {
    const r = await walk((n) => page(n < 4 ? [n, n + 1] : [n], 5));
    expect(r.error).toBeUndefined();
    expect(r.seen).toEqual(['e-0', 'e-1', 'e-2', 'e-3', 'e-4']);
  });

  it('new envelopes on every page beyond what the total needs: stopped at twice that, plus two', async () => {
    // Announces 4, answers one new envelope per page forever: 4 pages needed, 10 allowed.
    const r = await walk((n) => page([n], 4 + n));
    expect(r.error?.code).toBe('SR_LISTING_UNBOUNDED');
    expect(r.error?.details?.['reason']).toBe('page-cap');
    expect(r.calls).toBe(10);
  });

  it('never more than maxPages, whatever the total', async () => {
    const r = await walk((n) => page([n], 500_000), { maxPages: 7 });
    expect(r.error?.details?.['reason']).toBe('page-cap');
    expect(r.calls).toBe(7);
  });

  it('a total that is not a whole number is refused at the first page', async () => {
    const r = await walk(() => ({ envelopes: [{ envelopeId: 'x' }], totalSetSize: '1e9' }));
    expect(r.error?.details?.['reason']).toBe('total-size');
    expect(r.calls).toBe(1);
  });

  it('an aborted signal stops it before the next page, never before the first', async () => {
    const controller = new AbortController();
    controller.abort();
    let calls = 0;
    const pages = listingPages<number>({
      what: 'a listing',
      first: 0,
      fetch: async (n) => {
        calls += 1;
        return page([n], 100);
      },
      next: (_p, n) => n + 1,
      signal: controller.signal,
    });
    const error = await (async () => {
      for await (const _ of pages);
    })().catch((e: unknown) => e as SignrunError);
    expect(error?.code).toBe('SR_INTERRUPTED');
    expect(calls).toBe(1);
  });
});

async function read(stream: Readable): Promise<Buffer> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(chunk as Buffer);
  return Buffer.concat(parts);
}

describe('checkedDownload: one check of what a download is', () => {
  it('passes a PDF through byte for byte, in pieces as small as one byte', async () => {
    const pdf = Buffer.from('%PDF-1.7\nbody\n%%EOF\n');
    const body = Readable.from([...pdf].map((b) => Buffer.from([b])));
    expect((await read(checkedDownload(body, { kind: 'pdf' }, 'doc'))).equals(pdf)).toBe(true);
  });

  it('refuses HTML, an empty body, and a ZIP expected as a PDF; accepts a ZIP expected as one', async () => {
    for (const bytes of ['<html>sign in</html>', '', 'PK\x03\x04zip']) {
      const error = await read(checkedDownload(Readable.from([Buffer.from(bytes, 'latin1')]), { kind: 'pdf' }, 'doc'))
        .then(() => undefined)
        .catch((e: unknown) => e as SignrunError);
      expect(error?.code).toBe('SR_DOWNLOAD_NOT_DOCUMENT');
    }
    const zip = Buffer.from('PK\x03\x04rest', 'latin1');
    expect((await read(checkedDownload(Readable.from([zip]), { kind: 'zip' }, 'archive'))).equals(zip)).toBe(true);
  });

  it('the cap: four times what was announced plus 1 MiB, at most the maximum', async () => {
    expect(downloadCap({ kind: 'pdf', announcedBytes: 1000 })).toBe(4000 + 1024 * 1024);
    expect(downloadCap({ kind: 'pdf' })).toBe(maxDownloadBytes);
    expect(downloadCap({ kind: 'pdf', announcedBytes: 10 * maxDownloadBytes })).toBe(maxDownloadBytes);
    const endless = Readable.from(
      (function* () {
        yield Buffer.from('%PDF-1.7\n');
        for (;;) yield Buffer.alloc(1024);
      })(),
    );
    const error = await read(checkedDownload(endless, { kind: 'pdf' }, 'doc', 10_000)).catch(
      (e: unknown) => e as SignrunError,
    );
    expect((error as SignrunError).code).toBe('SR_DOWNLOAD_TOO_LARGE');
  });
});

describe('isStatusRegression: a status never goes backwards', () => {
  it.each([
    ['completed', 'sent', true],
    ['completed', 'declined', true],
    ['delivered', 'sent', true],
    ['sent', 'delivered', false],
    ['sent', 'completed', false],
    ['Completed', 'completed', false],
    ['sent', 'deleted', false],
    [undefined, 'sent', false],
  ])('%s → %s: %s', (from, to, regression) => {
    expect(isStatusRegression(from, to)).toBe(regression);
  });
});
