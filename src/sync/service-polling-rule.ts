import { isLoopback } from '../runner/target.js';
import { defaultMinListingIntervalMs } from './polling-rule.js';

/** How long the sandbox's health answer may take before DocuSign's rule is kept (ms). */
const healthTimeoutMs = 2000;

/**
 * The least time between two status listings of the target: DocuSign's
 * 15-minute polling rule, unless the target is signrun's own sandbox and it
 * says it has none. The in-process sandbox (`target.sandbox`) has none; a
 * `signrun serve` on this machine (a loopback root URL, as target.ts
 * recognises one) says which rule it keeps at `GET /sandbox/health`
 * (`pollingRule: none`, its default, or `docusign` with `serve
 * --polling-rule docusign`). Anything else — DocuSign, a service that does
 * not answer that, an older sandbox — keeps DocuSign's rule: only loopback
 * addresses are asked, so nothing is sent to DocuSign.
 */
export async function serviceListingIntervalMs(
  target: { rootUrl: string; sandbox: boolean },
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  if (target.sandbox) return 0;
  if (!isLoopback(target.rootUrl)) return defaultMinListingIntervalMs;
  try {
    const answer = await fetchImpl(new URL('/sandbox/health', target.rootUrl), {
      signal: AbortSignal.timeout(healthTimeoutMs),
      redirect: 'error',
      headers: { accept: 'application/json' },
    });
    if (!answer.ok) return defaultMinListingIntervalMs;
    const body = (await answer.json()) as { pollingRule?: unknown };
    return body.pollingRule === 'none' ? 0 : defaultMinListingIntervalMs;
  } catch {
    return defaultMinListingIntervalMs;
  }
}
