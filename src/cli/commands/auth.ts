import type { CommandHandler } from '../command.js';
import { shownUrl } from '../../secret.js';
import type { CommandIO } from '../io.js';
import { formatDiagnostics } from '../format-diagnostics.js';
import { useColour } from '../io.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { loadConfig } from '../../config/index.js';
import type { SignrunConfig } from '../../config/types.js';
import { EsignatureClient } from '../../client/esignature-client.js';
import { consentUrl, defaultRedirectUri } from '../../client/oauth/consent-url.js';
import { parseOAuthBase } from '../../client/oauth/oauth-base.js';
import { jwtSettingsOf, resolveTarget } from '../../runner/target.js';

async function configOf(io: CommandIO, allowPartialJwt = false): Promise<SignrunConfig | undefined> {
  const loaded = await loadConfig({ cwd: io.cwd, env: io.env, allowPartialJwt });
  if (!loaded.ok) {
    io.stderr.write(formatDiagnostics(loaded.errors, 'text', { colour: useColour(io, 'stderr') }));
    return undefined;
  }
  if (loaded.warnings.length > 0)
    io.stderr.write(formatDiagnostics(loaded.warnings, 'text', { colour: useColour(io, 'stderr') }));
  return loaded.config;
}

/** "in 59 min" / "3 min ago": how far a moment is from now. */
function fromNow(ms: number, now: number): string {
  const minutes = Math.round((ms - now) / 60_000);
  return minutes >= 0 ? `in ${minutes} min` : `${-minutes} min ago`;
}

/**
 * `signrun auth check [--format text|json]`: who the configured credentials
 * are, by using them — the user, the account, the API root and version, when
 * the access token expires and how many calls the hour has left
 * (x-ratelimit-* of one GET of the account). Never a secret. Exit 0 when
 * they work; the error's code and next step otherwise.
 */
export const check: CommandHandler = async ({ options, io }) => {
  const config = await configOf(io);
  if (!config) return ExitCode.invalid;
  const jwt = jwtSettingsOf(config);
  if (!jwt && !config.rootUrl) {
    throw new SignrunError(
      'SR_CREDENTIALS_MISSING',
      'no credentials are configured: `npx signrun run` would use the in-process sandbox, and there is nothing to check',
      {
        hint: 'Set DOCUSIGN_INTEGRATOR_KEY, DOCUSIGN_USER_ID, DOCUSIGN_PRIVATE_KEY_FILE and DOCUSIGN_OAUTH_BASE (docs/docusign.md), then `npx signrun auth check`.',
      },
    );
  }
  const target = await resolveTarget(config, () => {
    throw new SignrunError('SR_USAGE', 'auth check never starts a sandbox');
  });
  for (const warning of target.warnings) io.stderr.write(`warning: ${warning}\n`);
  const client = EsignatureClient.create({ rootUrl: target.rootUrl, auth: target.auth });
  try {
    const account = await client.login();
    // One API call, for the rate-limit headers and to prove the token works on the API itself.
    await account.client.getAccount(account.accountId);
    const now = Date.now();
    const found = target.account;
    const expiresAt = target.auth.kind === 'oauth' ? target.auth.session.tokens.expiresAt : undefined;
    const rate = client.rateLimit;
    const report = {
      login:
        target.auth.kind === 'oauth' ? 'jwt-grant' : target.auth.kind === 'bearer' ? 'access-token' : 'legacy-header',
      ...(jwt ? { integrationKey: jwt.integrationKey, oauthBase: jwt.base.origin } : {}),
      user: {
        id: found?.userId ?? account.userId ?? null,
        name: found?.userName ?? null,
        email: found?.email ?? null,
      },
      account: { id: account.accountId, name: found?.accountName ?? null },
      apiRoot: shownUrl(target.rootUrl),
      apiVersion: client.apiVersion,
      tokenExpiresAt: expiresAt === undefined ? null : new Date(expiresAt).toISOString(),
      rateLimit: rate ?? null,
    };
    if (options['format'] === 'json') {
      io.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
      return ExitCode.ok;
    }
    const lines = [
      `Login:        ${
        report.login === 'jwt-grant'
          ? `JWT grant, integration key ${jwt?.integrationKey} at ${jwt?.base.origin}`
          : report.login === 'access-token'
            ? 'an access token (DOCUSIGN_ACCESS_TOKEN)'
            : 'the legacy X-DocuSign-Authentication header'
      }`,
      `User:         ${[report.user.name, report.user.email && report.user.email !== report.user.name && `<${report.user.email}>`].filter(Boolean).join(' ') || '(not given)'}${report.user.id ? ` — user id ${report.user.id}` : ''}`,
      `Account:      ${account.accountId}${report.account.name ? ` (${report.account.name})` : ''}${jwt?.accountId ? ' (DOCUSIGN_ACCOUNT_ID)' : found ? ' (the default account)' : ''}`,
      `API root:     ${shownUrl(target.rootUrl)}`,
      `API version:  REST ${client.apiVersion}`,
      `Token:        ${expiresAt === undefined ? '(no expiry known)' : `valid until ${new Date(expiresAt).toISOString()} (${fromNow(expiresAt, now)}); signrun renews it before then`}`,
      `Rate limit:   ${
        rate?.remaining !== undefined
          ? `${rate.remaining}${rate.limit !== undefined ? ` of ${rate.limit}` : ''} calls left this hour${rate.resetAt ? ` (resets ${rate.resetAt})` : ''}`
          : '(the service sent no x-ratelimit-* headers)'
      }`,
    ];
    io.stdout.write(`${lines.join('\n')}\nThe credentials work.\n`);
    return ExitCode.ok;
  } finally {
    client.close();
    await target.close();
  }
};

/**
 * `signrun auth consent-url [--redirect-uri URI]`: the address the user
 * opens once in a browser to let the integration key act for them (the JWT
 * grant's consent), from DOCUSIGN_INTEGRATOR_KEY and DOCUSIGN_OAUTH_BASE.
 * Printed alone on stdout, so it can be piped. No call is made.
 */
export const consent: CommandHandler = async ({ options, io }) => {
  // Consent comes before the grant works: the user id and key may not be set yet.
  const config = await configOf(io, true);
  if (!config) return ExitCode.invalid;
  const c = config.credentials;
  const base = c.oauthBase === undefined ? undefined : parseOAuthBase(c.oauthBase);
  if (!c.integratorKey || !base) {
    throw new SignrunError(
      'SR_CREDENTIALS_MISSING',
      `the consent URL needs ${[!c.integratorKey && 'DOCUSIGN_INTEGRATOR_KEY', !base && 'DOCUSIGN_OAUTH_BASE'].filter(Boolean).join(' and ')}`,
      {
        hint: 'Set DOCUSIGN_INTEGRATOR_KEY and DOCUSIGN_OAUTH_BASE (account-d.docusign.com for demo), then `npx signrun auth consent-url`.',
      },
    );
  }
  const redirectUri = (options['redirectUri'] as string | undefined) ?? defaultRedirectUri;
  io.stdout.write(`${consentUrl(base, c.integratorKey, redirectUri)}\n`);
  io.stderr.write(
    `Open it in a browser, sign in as the user of DOCUSIGN_USER_ID and allow. ${redirectUri} must be one of the integration key's redirect URIs (Apps and Keys → the key → Additional settings).\n`,
  );
  return ExitCode.ok;
};
