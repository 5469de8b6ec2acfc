/**
 * The few pages a link answers with instead of a redirect. Plain HTML with
 * inline CSS only (no script, no outside resource), readable on a phone.
 */

function escape(text: string): string {
  return text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );
}

/** A page with a title and a paragraph. */
export function linkPage(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="robots" content="noindex"><title>${escape(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;margin:0;padding:2rem 1rem;color:#1d1d1f;background:#f5f5f7}
main{max-width:36rem;margin:auto;background:#fff;border-radius:12px;padding:1.5rem;box-shadow:0 1px 3px #0002}
h1{font-size:1.4rem;margin-top:0}</style></head>
<body><main><h1>${escape(title)}</h1><p>${escape(body)}</p></main></body></html>
`;
}

/** The words for an envelope that will not be signed any more (DocuSign's statuses). */
export function settledPage(status: string): { title: string; body: string } {
  switch (status) {
    case 'completed':
      return {
        title: 'This document has been signed',
        body: 'Everyone has signed this envelope; there is nothing left to sign. The sender keeps the signed copy.',
      };
    case 'declined':
      return {
        title: 'This envelope was declined',
        body: 'A signer declined this envelope, so it can no longer be signed. Contact the sender if this is a mistake.',
      };
    case 'voided':
      return {
        title: 'This envelope was withdrawn',
        body: 'The sender voided this envelope; it can no longer be signed. Contact the sender if you still expect to sign something.',
      };
    default:
      return { title: 'This envelope can no longer be signed', body: `Its status is ${status}.` };
  }
}

export const notFoundPage = {
  title: 'Link not found',
  body: 'This signing link is not known here. Check that it was copied whole, or ask the sender for a new one.',
};

export const notYetPage = {
  title: 'Not your turn yet',
  body: 'Someone before you in the signing order has not signed yet. Open this same link again once they have; it stays valid.',
};

export const unavailablePage = {
  title: 'Signing is not available right now',
  body: 'The signing service could not be reached or refused to open a session. Try this same link again in a few minutes; if it keeps failing, tell the sender.',
};

/** An opening beyond the rate of new signing addresses: come back in a while (with Retry-After). */
export function waitPage(seconds: number): { title: string; body: string } {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return {
    title: 'Please try again in a few minutes',
    body: `<p>This link was opened many times in a short while. Please open it again in about ${minutes} minute${minutes === 1 ? '' : 's'}.</p>`,
  };
}
