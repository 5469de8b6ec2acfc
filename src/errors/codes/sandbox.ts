import { defineCodes } from '../catalogue-entry.js';

/**
 * Codes for `signrun serve` as a program (start-up, seed, data folder). The
 * service's own API errors are DocuSign's codes (`{ errorCode, message }`), not these.
 */
export const sandboxCodes = defineCodes({
  SR_SANDBOX_START: {
    exitCode: 2,
    summary: 'The sandbox could not start (port in use, data folder not writable).',
    hint: 'Choose another --port or --data folder.',
  },
});
