import { defineCodes } from '../catalogue-entry.js';

/** Codes for talking to the eSignature service (HTTP client). */
export const clientCodes = defineCodes({
  SR_HTTP_STATUS: {
    exitCode: 1,
    summary: 'The service answered with an error status.',
    hint: 'Read the service errorCode in the message; fix the request or retry later.',
  },
});
