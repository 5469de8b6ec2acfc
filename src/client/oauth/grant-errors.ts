import { SignrunError } from '../../errors/signrun-error.js';
import { consentUrl } from './consent-url.js';
import { docusignAccountServers, type OAuthBase } from './oauth-base.js';

/** What the grant was about, for messages a person can act on (never the key or the token). */
export interface GrantContext {
  base: OAuthBase;
  integrationKey: string;
  userId: string;
}

/** DocuSign's error body of the account server (`{error, error_description}`). */
export interface OAuthErrorBody {
  error?: string;
  error_description?: string;
}

/**
 * Turns a refusal of POST /oauth/token into an error with a stable code and
 * the next step: consent_required gives the consent URL to open; each
 * invalid_grant cause says what to check (DocuSign's error_description:
 * issuer_not_found, no_valid_keys_or_signatures, user_not_found, an expired
 * assertion or one issued in the future).
 */
export function grantError(status: number, body: OAuthErrorBody, ctx: GrantContext): SignrunError {
  const error = body.error ?? '';
  const description = body.error_description ?? '';
  const said = `${error}${description ? ` ${description}` : ''}`.trim() || `status ${status}`;
  const where = `${ctx.base.origin}/oauth/token`;
  const environment = docusignAccountServers[ctx.base.audience];
  const details = { status, error, errorDescription: description, oauthBase: ctx.base.origin };
  if (error === 'consent_required' || description === 'consent_required') {
    const url = consentUrl(ctx.base, ctx.integrationKey);
    return new SignrunError(
      'SR_AUTH_CONSENT_REQUIRED',
      `the user ${ctx.userId} has not allowed the integration key ${ctx.integrationKey} to act for them (${where} answered consent_required). Open this address in a browser, sign in as that user and allow:\n  ${url}`,
      { details: { ...details, consentUrl: url } },
    );
  }
  if (/issuer_not_found|client_id|invalid_client/i.test(description) || error === 'invalid_client') {
    const other =
      environment === 'demo'
        ? 'account.docusign.com'
        : environment === 'production'
          ? 'account-d.docusign.com'
          : undefined;
    return new SignrunError(
      'SR_AUTH_INTEGRATION_KEY_UNKNOWN',
      `${where} does not know the integration key ${ctx.integrationKey} (${said})${other ? `: check it, or whether it belongs to the other environment (DOCUSIGN_OAUTH_BASE=${other})` : ''}`,
      { details },
    );
  }
  if (/no_valid_keys_or_signatures|signature|invalid_key/i.test(description)) {
    return new SignrunError(
      'SR_AUTH_KEY_MISMATCH',
      `${where} found no RSA public key of the integration key ${ctx.integrationKey} that matches the private key signrun signed with (${said})`,
      { details },
    );
  }
  if (/user_not_found|unknown.?user/i.test(description)) {
    const email = ctx.userId.includes('@');
    return new SignrunError(
      'SR_AUTH_USER_UNKNOWN',
      `${where} does not know the user ${ctx.userId} (${said})${email ? ': DOCUSIGN_USER_ID must be the user id (a GUID), not the email' : ''}`,
      { details },
    );
  }
  if (/expired|iat|future|not.?yet|nbf|clock|skew|exp\b/i.test(description)) {
    return new SignrunError(
      'SR_AUTH_CLOCK_SKEW',
      `${where} refused the assertion as expired or not yet valid (${said}): this machine's clock (${new Date().toISOString()}) differs from the account server's`,
      { details },
    );
  }
  return new SignrunError('SR_AUTH_GRANT_REFUSED', `${where} refused the JWT grant (${said})`, { details });
}
