import { createHmac, timingSafeEqual } from 'node:crypto';

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
  if (header === undefined) return false;
  const expected = Buffer.from(connectSignature(rawBody, key));
  const given = Buffer.from(header);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
