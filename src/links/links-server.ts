import type { SignrunConfig } from '../config/types.js';
import { OutputFolder } from '../output/output-folder.js';
import { SignrunError } from '../errors/signrun-error.js';
import { buildLinksApp } from './links-app.js';
import type { ViewLimitSettings } from './view-limits.js';
import { ServiceSessions } from './service-sessions.js';

/** Options of `signrun links serve`. */
export interface LinksServerOptions {
  outDir: string;
  config: SignrunConfig;
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 8090; 0 picks a free port. */
  port?: number;
  /** The public address of the server (behind a reverse proxy); default `http://HOST:PORT`. */
  baseUrl?: string;
  /** How often the output folder is scanned for new envelopes (ms); default 60,000. */
  rescanEveryMs?: number;
  /** Where signers go after signing, by envelope folder (`<job>/<key>`), from the job files; absent: signing.json's. */
  returnUrls?: ReadonlyMap<string, string>;
  /** The rate of new signing addresses (view-limits.ts). */
  viewLimits?: Partial<ViewLimitSettings>;
}

/** A listening links server. */
export interface RunningLinksServer {
  /** Where it listens: `http://HOST:PORT`. */
  origin: string;
  /** What links are built on. */
  baseUrl: string;
  close(): Promise<void>;
}

/**
 * Starts the links server: listens, then gives every embedded recipient of
 * the output folder its token and `link` (written into signing.json).
 */
export async function startLinksServer(options: LinksServerOptions): Promise<RunningLinksServer> {
  const out = new OutputFolder(options.outDir);
  const host = options.host ?? '127.0.0.1';
  const sessions = new ServiceSessions(options.config);
  let baseUrl = options.baseUrl?.replace(/\/+$/, '') ?? '';
  const { app, rescan } = buildLinksApp({
    out,
    baseUrl: () => baseUrl,
    sessions,
    ...(options.returnUrls ? { returnUrls: options.returnUrls } : {}),
    ...(options.viewLimits ? { viewLimits: options.viewLimits } : {}),
  });
  try {
    await app.listen({ host, port: options.port ?? 8090 });
  } catch (cause) {
    sessions.close();
    throw new SignrunError(
      'SR_LINKS_START',
      `the links server could not listen on ${host}:${options.port ?? 8090}: ${(cause as Error).message}`,
      { cause },
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8090);
  const origin = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  if (baseUrl === '') baseUrl = origin;
  try {
    await rescan();
  } catch (error) {
    await app.close();
    sessions.close();
    throw error;
  }
  // Envelopes a later run sends get their links (in signing.json) within a
  // minute, without a restart; one scan at a time.
  let scanning: Promise<void> | undefined;
  const timer = setInterval(() => {
    scanning ??= rescan()
      .catch(() => undefined)
      .finally(() => (scanning = undefined));
  }, options.rescanEveryMs ?? 60_000);
  timer.unref();
  return {
    origin,
    baseUrl,
    close: async () => {
      clearInterval(timer);
      await scanning;
      await app.close();
      sessions.close();
    },
  };
}
