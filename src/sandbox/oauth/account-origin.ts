import type { SandboxConfig } from '../services.js';

/**
 * The origin of the sandbox's account server and API as configuration knows
 * it (`http(s)://HOST:PORT`): the origin addresses are handed out with, else
 * the one the sandbox listens on. Never the request's Host header: userinfo's
 * `base_uri` tells a client where to send its API calls, and a forged Host
 * must not be able to point it elsewhere. Under `inject()` (no listening
 * server) it is `http://localhost`.
 */
export function accountOrigin(config: SandboxConfig): string {
  return config.origin ?? config.listenOrigin ?? 'http://localhost';
}

/** `HOST:PORT` of an origin, as DocuSign's clients put it in a JWT's `aud` (e.g. `127.0.0.1:8080`). */
export function audienceOf(origin: string): string {
  return new URL(origin).host;
}
