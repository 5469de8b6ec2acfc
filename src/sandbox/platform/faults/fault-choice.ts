import type { FaultKind, FaultRule, FaultSpec } from './fault-spec.js';

/** What the fault plugin knows of a request when it draws. */
export interface FaultCandidate {
  method: string;
  /** The raw URL path (with query). */
  url: string;
}

// GET …/accounts/{accountId}/envelopes/{envelopeId}/documents/{documentId}
// (documents, `combined`, `certificate`): `#/paths/.../documents/{documentId}`.
const downloadPath = /^\/restapi\/v2(?:\.1)?\/accounts\/[^/]+\/envelopes\/[^/]+\/documents\/[^/?]+\/?(?:\?|$)/;

/** True for API paths (faults apply to /restapi/** only, never to /sandbox/** or the signing page). */
export function isApiRequest(url: string): boolean {
  return url.startsWith('/restapi/');
}

/** True for a document or certificate download, the only requests `truncate` applies to. */
export function isDownload(candidate: FaultCandidate): boolean {
  return candidate.method === 'GET' && downloadPath.test(candidate.url);
}

/**
 * Draws the fault for one API request: ONE random number per request, laid
 * on the rules in their fixed order (so the sequence of draws, hence of
 * faults, depends only on the seed and the order of requests). A `truncate`
 * drawn for a request that is not a download means no fault: its probability
 * is per download.
 */
export function chooseFault(spec: FaultSpec, random: () => number, candidate: FaultCandidate): FaultRule | undefined {
  const r = random();
  let cumulative = 0;
  for (const rule of spec.rules) {
    cumulative += rule.probability;
    if (r < cumulative) {
      if (rule.kind === 'truncate' && !isDownload(candidate)) return undefined;
      return rule;
    }
  }
  return undefined;
}

/** Counts of what was injected, for GET /sandbox/faults. */
export type FaultCounts = Record<FaultKind, number>;
