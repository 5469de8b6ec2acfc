import { escapeHtml } from '../platform/html-escape.js';

/** What the consent form carries from GET /oauth/auth to its POST (hidden fields). */
export interface ConsentRequest {
  clientId: string;
  redirectUri: string;
  scopes: string[];
  state: string | undefined;
  codeChallenge: string | undefined;
  codeChallengeMethod: string | undefined;
}

const scopeText: Record<string, string> = {
  signature: 'Send envelopes and read their status and documents in your name',
  impersonation: 'Do so without you present, whenever the application needs to (JWT grant)',
  extended: 'Keep access without asking you again (refresh tokens)',
  openid: 'Know who you are',
  email: 'Know your email address',
  profile: 'Know your name',
};

/**
 * The consent page of DocuSign's account server, as the sandbox plays it:
 * sign in (email or user name, password) and allow or deny the integration
 * key the scopes it asks for. A plain HTML form, no script; the CSRF token is
 * in a hidden field and in a SameSite=Strict cookie (double submit).
 */
export function consentPageHtml(request: ConsentRequest, csrfToken: string, error?: string, email = ''): string {
  const hidden: Array<[string, string | undefined]> = [
    ['response_type', 'code'],
    ['client_id', request.clientId],
    ['redirect_uri', request.redirectUri],
    ['scope', request.scopes.join(' ')],
    ['state', request.state],
    ['code_challenge', request.codeChallenge],
    ['code_challenge_method', request.codeChallengeMethod],
    ['csrf_token', csrfToken],
  ];
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Allow access · signrun sandbox</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 32rem; margin: 2rem auto; padding: 0 1rem; color: #1d1d1f; }
label { display: block; margin-top: 1rem; font-weight: 600; }
input[type=email], input[type=text], input[type=password] { width: 100%; padding: .5rem; font: inherit; box-sizing: border-box; }
.error { color: #a00; border: 1px solid #a00; padding: .5rem; }
.buttons { margin-top: 1.5rem; display: flex; gap: 1rem; }
button { font: inherit; padding: .5rem 1.25rem; }
</style>
</head>
<body>
<main>
<h1>Allow access</h1>
<p>The application <strong>${escapeHtml(request.clientId)}</strong> asks to:</p>
<ul>${request.scopes.map((s) => `<li><strong>${escapeHtml(s)}</strong>: ${escapeHtml(scopeText[s] ?? s)}</li>`).join('')}</ul>
<p>After you answer, your browser returns to <code>${escapeHtml(new URL(request.redirectUri).origin)}</code>.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/oauth/auth">
${hidden
  .filter((h): h is [string, string] => h[1] !== undefined)
  .map(([name, value]) => `<input type="hidden" name="${name}" value="${escapeHtml(value)}">`)
  .join('\n')}
<label for="email">Email or user name</label>
<input id="email" name="email" type="text" autocomplete="username" required value="${escapeHtml(email)}">
<label for="password">Password</label>
<input id="password" name="password" type="password" autocomplete="current-password" required>
<div class="buttons">
<button type="submit" name="decision" value="allow">Allow</button>
<button type="submit" name="decision" value="deny" formnovalidate>Deny</button>
</div>
</form>
<p><small>signrun sandbox — not DocuSign. Nothing here leaves this machine.</small></p>
</main>
</body>
</html>`;
}

/** A page for a request that cannot be sent back to its redirect_uri (unknown application, bad address). */
export function consentErrorHtml(title: string, text: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)} · signrun sandbox</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`;
}
