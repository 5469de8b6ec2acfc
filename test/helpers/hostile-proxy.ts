import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { unzipSync, zipSync } from 'fflate';

/**
 * How the proxy misbehaves (issue 25), or `pass` to forward as it is:
 * - `repeat-first-page`: every page of an envelope listing is the first
 *   (start_position dropped), announcing 5,000 envelopes;
 * - `billion`: an envelope listing announces a billion envelopes;
 * - `endless-pages`: every page of an envelope listing is one envelope never
 *   seen before, announcing 3,000;
 * - `sent-after-completed`: a listing says `sent` for completed envelopes;
 * - `html-documents`: a document or certificate download answers 200 with an HTML page;
 * - `endless-documents`: a download answers `%PDF-` (an archive: `PK\x03\x04`,
 *   a ZIP's first bytes) and then bytes without end (64 MiB at most, so that
 *   a client that does not stop ends a test, not a disk);
 * - `renamed-archive`: an envelope's archive (documents/archive) holds the same
 *   files under names that are not DocuSign's (`file-1.pdf`, `file-2.pdf`…),
 *   which the sandbox itself never writes;
 * - `listing-without-tabs`: an envelope listing's recipients come without
 *   their tabs, as from a service that ignores `include=tabs`;
 * - `oversized-template-documents`: a template's documents other than
 *   documentId 1 answer 200 with a `Content-Length` of 256 MiB (over any
 *   download cap) and `%PDF-`, then bytes until the client lets go (issue 36:
 *   a refused import left the first document behind).
 */
export type HostileMode =
  | 'pass'
  | 'repeat-first-page'
  | 'billion'
  | 'endless-pages'
  | 'sent-after-completed'
  | 'html-documents'
  | 'endless-documents'
  | 'renamed-archive'
  | 'listing-without-tabs'
  | 'oversized-template-documents';

/** A loopback proxy in front of a real sandbox that misbehaves on demand. */
export interface HostileProxy {
  /** `http://127.0.0.1:PORT/restapi/v2`. */
  rootUrl: string;
  mode: HostileMode;
  /** Envelope listings (GET …/accounts/{id}/envelopes) seen since the last reset. */
  listings: number;
  /** Bytes of endless downloads written before the client let go. */
  endlessBytes: number;
  /**
   * Awaited with the count at each envelope listing that arrives, before it is
   * answered (a test sends SIGTERM from here and holds the page until the
   * client has taken the signal).
   */
  beforeListing?: (listings: number) => Promise<void> | void;
  /** Awaited at every request that arrives, before it is forwarded (a barrier holds some until others arrive). */
  beforeRequest?: (method: string, url: string) => Promise<void> | void;
  /**
   * True for a request whose answer is lost: the sandbox processes it (and
   * commits), then the client's connection is destroyed instead of answered
   * (as a network cut after the service acted).
   */
  loseAnswer?: (method: string, url: string) => boolean;
  /**
   * Awaited once the sandbox has answered a request, before the answer is
   * passed on: the service has acted, and the client does not know it yet
   * (a test kills the client here to lose an answer for good).
   */
  afterAnswer?: (method: string, url: string, status: number) => Promise<void> | void;
  close(): Promise<void>;
}

const listing = /^\/restapi\/v2(?:\.1)?\/accounts\/[^/]+\/envelopes(?:\?|$)/;
const download = /^\/restapi\/v2(?:\.1)?\/accounts\/[^/]+\/envelopes\/[^/]+\/documents\/[^/?]+/;
const templateDownload = /^\/restapi\/v2(?:\.1)?\/accounts\/[^/]+\/templates\/[^/]+\/documents\/([^/?]+)/;

/**
 * Starts the proxy in front of `sandboxOrigin` (`http://127.0.0.1:PORT`). It
 * forwards every request and rewrites the sandbox's origin in
 * login_information (so the account's calls come through it too); in a
 * hostile mode it changes the listings or downloads as {@link HostileMode} says.
 */
export async function startHostileProxy(sandboxOrigin: string): Promise<HostileProxy> {
  const target = new URL(sandboxOrigin);
  let fakeIds = 0;
  const state: HostileProxy = {
    rootUrl: '',
    mode: 'pass',
    listings: 0,
    endlessBytes: 0,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    const isListing = req.method === 'GET' && listing.test(url);
    const isDownload = req.method === 'GET' && download.test(url);
    if (isListing) state.listings += 1;
    const held = [
      isListing ? state.beforeListing?.(state.listings) : undefined,
      state.beforeRequest?.(req.method ?? 'GET', url),
    ].filter((h) => h !== undefined);
    if (held.length > 0) {
      void Promise.all(held).then(() => answer(req, res, url, isListing, isDownload));
      return;
    }
    answer(req, res, url, isListing, isDownload);
  });
  const answer = (
    req: http.IncomingMessage,
    res: http.ServerResponse,
    url: string,
    isListing: boolean,
    isDownload: boolean,
  ): void => {
    if (isDownload && state.mode === 'html-documents') {
      req.resume();
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<!doctype html><html><body><h1>Please sign in</h1></body></html>\n');
      return;
    }
    const oversized =
      state.mode === 'oversized-template-documents' &&
      req.method === 'GET' &&
      (templateDownload.exec(url)?.[1] ?? '1') !== '1';
    if ((isDownload && state.mode === 'endless-documents') || oversized) {
      req.resume();
      const archive = /\/documents\/archive(?:\?|$)/.test(url);
      res.writeHead(200, {
        'content-type': archive ? 'application/zip' : 'application/pdf',
        ...(oversized ? { 'content-length': String(256 * 1024 * 1024) } : {}),
      });
      const chunk = Buffer.alloc(64 * 1024, 0x20);
      res.write(archive ? 'PK\x03\x04' : '%PDF-1.7\n');
      const pump = () => {
        while (state.endlessBytes < 64 * 1024 * 1024 && !res.destroyed) {
          state.endlessBytes += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => res.destroy());
      pump();
      return;
    }
    let path = url;
    if (isListing && state.mode === 'repeat-first-page') {
      const u = new URL(url, 'http://x');
      u.searchParams.delete('start_position');
      path = `${u.pathname}?${u.searchParams.toString()}`;
    }
    const upstream = http.request(
      {
        host: target.hostname,
        port: target.port,
        method: req.method,
        path,
        headers: { ...req.headers, host: target.host },
      },
      (answer) => {
        if (state.loseAnswer?.(req.method ?? 'GET', url)) {
          answer.resume();
          answer.on('end', () => res.destroy());
          return;
        }
        const renameArchive =
          state.mode === 'renamed-archive' && /\/documents\/archive(?:\?|$)/.test(url) && answer.statusCode === 200;
        const rewrite =
          url.includes('/login_information') ||
          renameArchive ||
          (isListing && state.mode !== 'pass' && answer.statusCode === 200);
        if (!rewrite) {
          const after = state.afterAnswer?.(req.method ?? 'GET', url, answer.statusCode ?? 502);
          const relay = () => {
            res.writeHead(answer.statusCode ?? 502, answer.headers);
            answer.pipe(res);
          };
          if (after) void Promise.resolve(after).then(relay);
          else relay();
          return;
        }
        const parts: Buffer[] = [];
        answer.on('data', (d: Buffer) => parts.push(d));
        answer.on('end', () => {
          if (renameArchive) {
            const files = Object.values(unzipSync(Buffer.concat(parts)));
            const renamed = zipSync(Object.fromEntries(files.map((bytes, i) => [`file-${i + 1}.pdf`, bytes])));
            res.writeHead(200, { ...answer.headers, 'content-length': String(renamed.length) });
            res.end(Buffer.from(renamed));
            return;
          }
          let text = Buffer.concat(parts).toString('utf8');
          if (url.includes('/login_information')) text = text.split(sandboxOrigin).join(new URL(state.rootUrl).origin);
          else text = JSON.stringify(hostileListing(JSON.parse(text) as Listing, state.mode, () => ++fakeIds));
          const headers = { ...answer.headers, 'content-length': String(Buffer.byteLength(text)) };
          res.writeHead(answer.statusCode ?? 502, headers);
          res.end(text);
        });
      },
    );
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  };
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.rootUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/restapi/v2`;
  return state;
}

interface Listing {
  envelopes?: Array<Record<string, unknown> & { status?: string; recipients?: unknown }>;
  totalSetSize?: string;
  resultSetSize?: string;
}

function hostileListing(page: Listing, mode: HostileMode, nextId: () => number): Listing {
  switch (mode) {
    case 'repeat-first-page':
      return { ...page, totalSetSize: '5000' };
    case 'billion':
      return { ...page, totalSetSize: '1000000000' };
    case 'endless-pages': {
      const id = nextId();
      const envelopeId = `00000000-0000-4000-8000-${String(id).padStart(12, '0')}`;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, id)).toISOString();
      return {
        ...page,
        envelopes: [{ envelopeId, status: 'sent', statusChangedDateTime: at, createdDateTime: at }],
        resultSetSize: '1',
        totalSetSize: '3000',
      };
    }
    case 'sent-after-completed':
      return {
        ...page,
        envelopes: (page.envelopes ?? []).map((e) => ({
          ...e,
          status: e.status === 'completed' ? 'sent' : e.status,
        })),
      };
    case 'listing-without-tabs':
      return {
        ...page,
        envelopes: (page.envelopes ?? []).map((e) => ({ ...e, recipients: withoutTabs(e.recipients) })),
      };
    default:
      return page;
  }
}

/** A listed envelope's recipients, each collection's recipients without their `tabs`. */
function withoutTabs(recipients: unknown): unknown {
  if (recipients === null || typeof recipients !== 'object') return recipients;
  return Object.fromEntries(
    Object.entries(recipients).map(([collection, list]) => [
      collection,
      Array.isArray(list)
        ? list.map((r: unknown) => {
            if (r === null || typeof r !== 'object') return r;
            const { tabs: _tabs, ...rest } = r as Record<string, unknown>;
            return rest;
          })
        : list,
    ]),
  );
}
