import { defineCodes } from '../catalogue-entry.js';

/** Codes for talking to the eSignature service (HTTP client). */
export const clientCodes = defineCodes({
  SR_HTTP_STATUS: {
    exitCode: 1,
    summary: 'The service answered with an error status.',
    hint: 'Read the service errorCode in the message; fix the request or retry later.',
  },
  SR_HTTP_AUTH: {
    exitCode: 2,
    summary: 'The service refused the credentials (HTTP 401, or a login error code).',
    hint: 'Check the credentials with `npx signrun auth check` (JWT grant: DOCUSIGN_INTEGRATOR_KEY, DOCUSIGN_USER_ID, DOCUSIGN_PRIVATE_KEY_FILE, DOCUSIGN_OAUTH_BASE; else DOCUSIGN_ACCESS_TOKEN or the legacy DOCUSIGN_USERNAME/DOCUSIGN_PASSWORD) and the root URL.',
  },
  SR_HTTP_NETWORK: {
    exitCode: 1,
    summary: 'The service could not be reached, or the connection broke before an answer came.',
    hint: 'Check the root URL and the network, then run again.',
  },
  SR_RATE_LIMITED: {
    exitCode: 1,
    summary: 'The service refused the call because a rate limit was reached, and retries ran out.',
    hint: 'Wait until the time the report gives (x-ratelimit-reset), or lower --concurrency, then run again.',
  },
  SR_ACCOUNT_ALLOWANCE: {
    exitCode: 1,
    summary:
      "The account's plan allows no more envelopes (DocuSign's ENVELOPE_ALLOWANCE_LIMIT_EXCEEDED); no time window resets it.",
    hint: "Ask the account's administrator to raise the plan's envelope allowance, or run against another account; waiting or lowering --concurrency does not help.",
  },
  SR_HTTP_BAD_RESPONSE: {
    exitCode: 1,
    summary: 'The service answered 2xx with a body signrun cannot read (not JSON, or a required field missing).',
    hint: 'Check that the root URL points at an eSignature REST API service (…/restapi/v2.1 or …/restapi/v2).',
  },
  SR_DOWNLOAD_FAILED: {
    exitCode: 1,
    summary: 'A document or certificate download broke off or could not be written to disk.',
    hint: 'Check free disk space and permissions of the output folder, then run again.',
  },
  SR_AUTH_CONSENT_REQUIRED: {
    exitCode: 2,
    summary:
      'The JWT grant was refused with consent_required: the user has not allowed the integration key to act for them.',
    hint: 'Open the consent URL in the message (or `npx signrun auth consent-url`) in a browser, sign in as the user and allow; then run again.',
  },
  SR_AUTH_INTEGRATION_KEY_UNKNOWN: {
    exitCode: 2,
    summary:
      'The account server does not know the integration key (invalid_grant issuer_not_found): mistyped, or it belongs to the other environment.',
    hint: 'Check DOCUSIGN_INTEGRATOR_KEY, and that DOCUSIGN_OAUTH_BASE is account-d.docusign.com for a demo (developer) key, account.docusign.com for a production one.',
  },
  SR_AUTH_KEY_MISMATCH: {
    exitCode: 2,
    summary:
      'The account server found no public key of the integration key that verifies the assertion (invalid_grant no_valid_keys_or_signatures).',
    hint: 'Use the private key of an RSA key pair of this integration key (Apps and Keys → the key → Service Integration); check DOCUSIGN_PRIVATE_KEY_FILE.',
  },
  SR_AUTH_USER_UNKNOWN: {
    exitCode: 2,
    summary: 'The account server does not know the user of the assertion (invalid_grant user_not_found).',
    hint: "Set DOCUSIGN_USER_ID to the user's API user id (a GUID, shown in Apps and Keys), not the email, of a user of this environment.",
  },
  SR_AUTH_CLOCK_SKEW: {
    exitCode: 2,
    summary:
      "The account server refused the assertion as expired or issued in the future: this machine's clock differs from the service's.",
    hint: 'Set the clock of this machine right (NTP: `timedatectl set-ntp true`), then run again.',
  },
  SR_AUTH_GRANT_REFUSED: {
    exitCode: 2,
    summary: 'The account server refused the JWT grant for another reason (its error is in the message).',
    hint: 'Check DOCUSIGN_INTEGRATOR_KEY, DOCUSIGN_USER_ID, DOCUSIGN_PRIVATE_KEY_FILE and DOCUSIGN_OAUTH_BASE; `npx signrun auth check` tries them.',
  },
  SR_AUTH_SERVER_UNREACHABLE: {
    exitCode: 2,
    summary: 'The account server (DOCUSIGN_OAUTH_BASE) could not be reached or did not answer as an OAuth server.',
    hint: 'Check DOCUSIGN_OAUTH_BASE: account-d.docusign.com (demo), account.docusign.com (production), or a sandbox http(s)://HOST:PORT.',
  },
  SR_AUTH_ACCOUNT_NOT_FOUND: {
    exitCode: 2,
    summary: 'The user of the credentials has no account with the configured account id, or no account at all.',
    hint: 'Set DOCUSIGN_ACCOUNT_ID to one of the account ids listed in the message, or unset it to use the default account.',
  },
  SR_AUTH_WRONG_REGION: {
    exitCode: 2,
    summary: "The configured root URL is not on the server where the account lives (userinfo's base_uri).",
    hint: 'Unset DOCUSIGN_ROOT_URL (the root comes from the account), or set it to the address in the message.',
  },
  SR_HTTP_REDIRECT_REFUSED: {
    exitCode: 1,
    summary:
      'The service redirected a call to another origin (scheme, host or port): signrun does not follow it, so the credentials never reach a server other than the configured one.',
    hint: 'If the new address is the real service, set DOCUSIGN_ROOT_URL to it; otherwise check who answers at the configured root URL.',
  },
  SR_LISTING_UNBOUNDED: {
    exitCode: 1,
    summary:
      'A listing of the service did not end as a listing does: it announced more envelopes than signrun believes (or a total that is not a number), answered the same page again, or kept answering pages beyond its own total. signrun stopped it after a bounded number of calls and recorded nothing of it.',
    hint: 'Check who answers at the configured root URL (a proxy or gateway that rewrites start_position, a service that is not DocuSign); run again once it answers as DocuSign does.',
  },
  SR_DOWNLOAD_NOT_DOCUMENT: {
    exitCode: 1,
    summary:
      'A download is not what was asked for: a document, certificate or combined PDF that does not start as a PDF (%PDF), or an archive that is not a ZIP (PK). Nothing was written (an HTML error page served with status 200 by a proxy, a login page…).',
    hint: 'Check who answers at the configured root URL; run again (`npx signrun sync`) once it serves the documents.',
  },
  SR_DOWNLOAD_DAMAGED: {
    exitCode: 1,
    summary:
      "An envelope's archive (documents/archive, a ZIP) cannot be read whole: a broken directory, a file whose bytes do not match its checksum or its stated size, or a compression signrun does not read. Nothing of it was written.",
    hint: 'Run `npx signrun sync` again: the archive is downloaded anew; if it stays damaged, check who answers at the configured root URL.',
  },
  SR_DOWNLOAD_TOO_LARGE: {
    exitCode: 1,
    summary:
      'A download grew beyond its cap (a few times the size the service announced for it, and never more than 128 MiB): signrun stopped reading it and removed what it had written.',
    hint: 'Check who answers at the configured root URL; a real document larger than that is out of what signrun downloads.',
  },
  SR_AUTH_REDIRECT_REFUSED: {
    exitCode: 2,
    summary:
      'The account server redirected the token request or userinfo to another origin: signrun does not follow it, so the JWT assertion and the access token never reach a server other than DOCUSIGN_OAUTH_BASE.',
    hint: 'Check DOCUSIGN_OAUTH_BASE: account-d.docusign.com (demo), account.docusign.com (production), or the sandbox origin; if the account server really moved, set it to the new address.',
  },
  SR_BASE_URI_REFUSED: {
    exitCode: 2,
    summary:
      "The server named for the account (userinfo's base_uri, login_information's baseUrl) is not one signrun sends credentials to: not https (plain http only on loopback or the configured server), with user info, a query or a fragment, or, behind DocuSign's account server, not a DocuSign domain (*.docusign.net, *.docusign.com).",
    hint: 'Check DOCUSIGN_OAUTH_BASE (or DOCUSIGN_ROOT_URL): the server that answered is not the one it should be, or a proxy rewrote its answer.',
  },
});
