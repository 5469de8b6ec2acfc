/**
 * What DocuSign appends to the client's returnUrl (`event=`), see the
 * "Embedded signing" guide and Swagger `recipientViewRequest.returnUrl`.
 */
export type SigningEvent =
  'signing_complete' | 'viewing_complete' | 'decline' | 'cancel' | 'ttl_expired' | 'session_timeout' | 'exception';

/** What a sender view (`views/sender`, the console's pages) appends: DocuSign's `Send`, `Save`, or an expired address. */
export type SenderViewEvent = 'Send' | 'Save' | 'ttl_expired';

/** The return address with `event=<event>` added (existing query parameters kept, an older `event` replaced). */
export function returnAddress(returnUrl: string, event: SigningEvent | SenderViewEvent): string {
  try {
    const url = new URL(returnUrl);
    url.searchParams.set('event', event);
    return url.toString();
  } catch {
    // Not absolute (the API validates it, but old rows may differ): append by hand.
    return `${returnUrl}${returnUrl.includes('?') ? '&' : '?'}event=${event}`;
  }
}
