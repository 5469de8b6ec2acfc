/**
 * Removes secrets from text that may end up in an error, a log or a report:
 * the given secret values (passwords, tokens), signing addresses
 * (`…/signing/<token>` of the sandbox and DocuSign's `…/Signing/…?…t=`
 * addresses) and query strings of URLs (they may carry tokens).
 */
export function redactText(text: string, secrets: readonly string[] = []): string {
  let out = text;
  for (const s of secrets) {
    if (s.length >= 3) out = out.split(s).join('[redacted]');
  }
  out = out.replace(/(\/signing\/)[^\s"'?#]+/gi, '$1[redacted]');
  out = out.replace(/(https?:\/\/[^\s"'?#]+)\?[^\s"'#]*/gi, '$1?[redacted]');
  return out;
}

/** The path of a URL without its query: what errors and events show of a request. */
export function pathOf(url: string): string {
  try {
    return new URL(url).pathname;
  } catch {
    return redactText(url.split('?')[0] ?? '');
  }
}
