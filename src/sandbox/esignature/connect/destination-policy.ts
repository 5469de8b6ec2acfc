import { isIP } from 'node:net';

/** Why a callback address is refused. */
export type DestinationRefusal = 'not-a-url' | 'scheme' | 'credentials' | 'host-not-allowed';

/**
 * Decides whether the sandbox may POST to a callback address. Allowed:
 * http(s) to loopback (127.0.0.0/8, ::1, `localhost`) and to the hosts in
 * `allowedHosts` (exact names, or `*.example.com` for sub-domains). Names
 * outside the list are never resolved, so a job file cannot make the
 * sandbox reach internal addresses (SSRF).
 */
export function checkDestination(
  url: string,
  allowedHosts: readonly string[] = [],
): { ok: true; url: URL } | { ok: false; reason: DestinationRefusal } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return { ok: false, reason: 'not-a-url' };
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { ok: false, reason: 'scheme' };
  if (parsed.username !== '' || parsed.password !== '') return { ok: false, reason: 'credentials' };
  const host = parsed.hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (isLoopback(host)) return { ok: true, url: parsed };
  for (const entry of allowedHosts) {
    const allowed = entry.toLowerCase();
    if (allowed.startsWith('*.') ? host.endsWith(allowed.slice(1)) : host === allowed) return { ok: true, url: parsed };
  }
  return { ok: false, reason: 'host-not-allowed' };
}

function isLoopback(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || host === '0:0:0:0:0:0:0:1';
  return false;
}
