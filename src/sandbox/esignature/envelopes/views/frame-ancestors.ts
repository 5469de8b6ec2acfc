import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import { apiErrors } from '../../../platform/http/api-error.js';

/**
 * Origins allowed to embed a recipient's signing page in an iframe, from the
 * recipient view request's `frameAncestors` (DocuSign's focused view). They
 * travel with the view token, then with the signing session it opens, and
 * become the page's CSP `frame-ancestors` (security-headers.ts). Without
 * them the page can be framed by the sandbox itself only (clickjacking).
 */
export type FrameAncestorsStore = ReturnType<typeof createFrameAncestorsStore>;

const stores = new WeakMap<SandboxDatabase, FrameAncestorsStore>();

/** The store of a database (one per database; its table `frame_ancestors` is in db/schema.ts). */
export function frameAncestorsStore(db: SandboxDatabase): FrameAncestorsStore {
  let store = stores.get(db);
  if (!store) {
    store = createFrameAncestorsStore(db);
    stores.set(db, store);
  }
  return store;
}

function createFrameAncestorsStore(db: SandboxDatabase) {
  // Keys: `t:<sha256 of the view token>` and `s:<session id>`.
  const insert = db.prepare('INSERT OR REPLACE INTO frame_ancestors (key, origins_json) VALUES (?, ?)');
  const select = db.prepare<[string], { origins_json: string }>(
    'SELECT origins_json FROM frame_ancestors WHERE key = ?',
  );
  const read = (key: string): string[] => {
    const row = select.get(key);
    return row ? (JSON.parse(row.origins_json) as string[]) : [];
  };
  return {
    forToken(tokenHash: string, origins: readonly string[]): void {
      if (origins.length > 0) insert.run(`t:${tokenHash}`, JSON.stringify(origins));
    },
    ofToken(tokenHash: string): string[] {
      return read(`t:${tokenHash}`);
    },
    /** The session opened by a token inherits its origins. */
    toSession(tokenHash: string, sessionId: string): void {
      const origins = read(`t:${tokenHash}`);
      if (origins.length > 0) insert.run(`s:${sessionId}`, JSON.stringify(origins));
    },
    ofSession(sessionId: string): string[] {
      return read(`s:${sessionId}`);
    },
  };
}

const loopback = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * `frameAncestors` / `messageOrigins` of a recipient view request: a list
 * of origins (`https://app.example.com`, port allowed, no path), https
 * except on loopback — DocuSign's rule. Normalised to URL origins, so
 * nothing but an origin ever reaches the CSP header.
 */
export function parseOrigins(value: unknown, field: string): string[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw apiErrors.invalidParameter(`'${field}' must be a list of origins.`);
  return value.map((entry, i) => {
    let url: URL | undefined;
    try {
      url = typeof entry === 'string' ? new URL(entry) : undefined;
    } catch {
      url = undefined;
    }
    const plain = url !== undefined && (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash;
    const secureEnough = url?.protocol === 'https:' || (url?.protocol === 'http:' && loopback.has(url.hostname));
    if (!url || !plain || !secureEnough || url.username || url.password)
      throw apiErrors.invalidParameter(
        `'${field}[${i}]' must be an origin such as https://app.example.com (http only for localhost), got ${JSON.stringify(entry)}.`,
      );
    return url.origin;
  });
}
