import { sandboxFetch } from '../sandbox/helpers/injected-sandbox.js';
/**
 * Drives the signing page with plain HTTP (no browser), as its forms would:
 * open the one-time link (cookie + CSRF token), then POST sign/decline.
 */
export async function openSigningLink(
  url: string,
): Promise<{ sessionUrl: string; cookie: string; html: string; csrf: string }> {
  const first = await sandboxFetch(url, { redirect: 'manual' });
  if (first.status !== 303) throw new Error(`opening the signing link answered ${first.status}`);
  const cookie = (first.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const sessionUrl = new URL(first.headers.get('location') ?? '', url).toString();
  const page = await sandboxFetch(sessionUrl, { headers: { cookie } });
  const html = await page.text();
  const csrf = /name="csrfToken" value="([^"]+)"/.exec(html)?.[1] ?? '';
  return { sessionUrl, cookie, html, csrf };
}

/** POSTs a form of the page (urlencoded), not following the redirect. */
export function postForm(
  url: string,
  cookie: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
) {
  return sandboxFetch(url, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(form).toString(),
  });
}

/** Opens the link and signs with `name`; returns the `event` of the redirect. */
export async function signOverHttp(url: string, name: string): Promise<string | null> {
  const { sessionUrl, cookie, csrf } = await openSigningLink(url);
  const res = await postForm(`${sessionUrl}/sign`, cookie, { signatureName: name, csrfToken: csrf });
  return new URL(res.headers.get('location') ?? 'http://x/').searchParams.get('event');
}
