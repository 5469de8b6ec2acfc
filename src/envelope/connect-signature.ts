import { createHmac, timingSafeEqual } from 'node:crypto';

// DocuSign Connect's HMAC security, once for both sides: the sandbox signs
// the messages it delivers, `signrun listen` (src/sync) checks the ones it
// receives (https://developers.docusign.com/platform/webhooks/connect/hmac/).

/** Header carrying the first HMAC signature, as DocuSign Connect names it. */
export const connectSignatureHeader = 'X-DocuSign-Signature-1';

/**
 * Base64 HMAC-SHA256 of the raw body under the account's HMAC key — what
 * DocuSign puts in `X-DocuSign-Signature-1` (Connect HMAC security,
 * https://developers.docusign.com/platform/webhooks/connect/hmac/).
 */
export function connectSignature(rawBody: string | Uint8Array, key: string): string {
  return createHmac('sha256', key).update(rawBody).digest('base64');
}

/** Constant-time check of a received signature, as a receiver does it. */
export function verifyConnectSignature(rawBody: string | Uint8Array, key: string, header: string | undefined): boolean {
  return (
    header !== undefined && verifyConnectSignatures(rawBody, { [connectSignatureHeader.toLowerCase()]: header }, [key])
  );
}

/**
 * DocuSign Connect's HMAC check: each `X-DocuSign-Signature-1…N` header is
 * the base64 HMAC-SHA256 of the raw body under one of the account's keys
 * (several while keys are rotated). True when any header matches any key;
 * every comparison is constant-time (timingSafeEqual on equal lengths).
 * `headers` as Node gives them (names lower case).
 */
export function verifyConnectSignatures(
  rawBody: string | Uint8Array,
  headers: Record<string, string | string[] | undefined>,
  keys: string[],
): boolean {
  const given: Buffer[] = [];
  for (let n = 1; n <= 100; n += 1) {
    const value = headers[`x-docusign-signature-${n}`];
    if (value === undefined) break;
    for (const v of Array.isArray(value) ? value : [value]) given.push(Buffer.from(v));
  }
  let ok = false;
  for (const key of keys) {
    const expected = Buffer.from(connectSignature(rawBody, key));
    // Every pair is compared (no early return), so timing says nothing of which one matched.
    for (const g of given) if (g.length === expected.length && timingSafeEqual(g, expected)) ok = true;
  }
  return ok;
}
