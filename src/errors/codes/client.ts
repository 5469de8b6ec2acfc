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
    hint: 'Check DOCUSIGN_USERNAME, DOCUSIGN_PASSWORD and DOCUSIGN_INTEGRATOR_KEY (or DOCUSIGN_ACCESS_TOKEN) and the root URL.',
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
    hint: 'Check that the root URL points at an eSignature REST API v2 service (…/restapi/v2).',
  },
  SR_DOWNLOAD_FAILED: {
    exitCode: 1,
    summary: 'A document or certificate download broke off or could not be written to disk.',
    hint: 'Check free disk space and permissions of the output folder, then run again.',
  },
});
