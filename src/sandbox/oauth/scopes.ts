import { OAuthError } from './oauth-error.js';

/**
 * Scopes the sandbox's account server knows (DocuSign's eSignature ones).
 * The API itself does not narrow by scope: any token opens the API, as
 * `signature` does on DocuSign.
 */
export const knownScopes = new Set(['signature', 'impersonation', 'extended', 'openid', 'email', 'profile']);

/** DocuSign's default when a request names no scope. */
export const defaultScope = 'signature';

/** Splits a space-separated scope parameter (duplicates dropped, order kept); invalid_scope for a word the server does not know. */
export function parseScopes(scope: string | undefined): string[] {
  const words = [...new Set((scope ?? defaultScope).split(/[\s+]+/).filter((w) => w !== ''))];
  if (words.length === 0) return [defaultScope];
  const unknown = words.filter((w) => !knownScopes.has(w));
  if (unknown.length > 0) {
    throw new OAuthError(
      400,
      'invalid_scope',
      `unknown scope ${unknown.join(' ')}; known: ${[...knownScopes].join(' ')}`,
    );
  }
  return words;
}
