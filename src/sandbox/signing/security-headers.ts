import type { FastifyReply } from 'fastify';

/**
 * Headers of every signing-page response. frame-ancestors 'self' (and the
 * older X-Frame-Options) stop other origins from framing the page
 * (clickjacking), except the origins a recipient view request named in
 * frameAncestors (DocuSign's focused view, frame-ancestors.ts); scripts only from the sandbox itself (pdf.js included, no
 * inline script, no eval); no referrer, so the one-time token in the address
 * never leaks to another site; nothing cached, pages show personal documents
 * (unless the route said otherwise: static assets are revalidated, asset-routes.ts).
 */
export function setSecurityHeaders(reply: FastifyReply, frameAncestors: readonly string[] = []): void {
  reply.header(
    'content-security-policy',
    [
      "default-src 'none'",
      "script-src 'self'",
      "worker-src 'self'",
      "connect-src 'self'",
      "style-src 'self'",
      "img-src 'self' data: blob:",
      "font-src 'self' data:",
      // Chrome applies form-action to the redirect that follows a POST: the
      // 303 to the client's returnUrl (any origin) must stay allowed.
      "form-action 'self' http: https:",
      // Plus the origins a recipient view request named (frameAncestors): an app embeds the page.
      ["frame-ancestors 'self'", ...frameAncestors].join(' '),
      "base-uri 'none'",
    ].join('; '),
  );
  // X-Frame-Options cannot name other origins: left out when the CSP allows some.
  if (frameAncestors.length === 0) reply.header('x-frame-options', 'SAMEORIGIN');
  reply.header('x-content-type-options', 'nosniff');
  reply.header('referrer-policy', 'no-referrer');
  // A route that decided its own caching keeps it (the page's static assets, a brand's colours).
  if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
}
