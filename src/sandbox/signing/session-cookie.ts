/** The cookie that proves a browser opened the session (its secret); one per session, scoped to its path. */
export function sessionCookieName(sessionId: string): string {
  return `sr_signing_${sessionId}`;
}

/**
 * Set-Cookie for a session. Lax (not Strict): the signer arrives by a
 * redirect from the client's site. A page embedded by another site (focused
 * view) is a cross-site frame, where browsers send only SameSite=None
 * cookies, and those only when Secure: so None over HTTPS when framed.
 */
export function sessionCookie(sessionId: string, secret: string, secure: boolean, framed = false): string {
  const sameSite = framed && secure ? 'None' : 'Lax';
  return `${sessionCookieName(sessionId)}=${secret}; Path=/signing/s/${sessionId}; HttpOnly; SameSite=${sameSite}${secure ? '; Secure' : ''}`;
}

/** Set-Cookie that removes the session cookie. */
export function clearedSessionCookie(sessionId: string): string {
  return `${sessionCookieName(sessionId)}=; Path=/signing/s/${sessionId}; HttpOnly; SameSite=Lax; Max-Age=0`;
}
