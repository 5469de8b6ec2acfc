/** `HOST:PORT` of an origin, as DocuSign's clients put it in a JWT's `aud` (e.g. `127.0.0.1:8080`). */
export function audienceOf(origin: string): string {
  return new URL(origin).host;
}
