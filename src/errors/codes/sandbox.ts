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
  SR_SANDBOX_SEED: {
    exitCode: 2,
    summary: 'The seed file given with --seed is missing, not YAML, or does not match schemas/seed.schema.json.',
    hint: 'Fix the field named at the line shown (see docs/sandbox.md for the seed format), or leave out --seed for the built-in seed.',
  },
  SR_SANDBOX_PUBLIC_URL: {
    exitCode: 2,
    summary:
      'The --public-url given to `signrun serve` is not an http(s) URL, or carries a user name, password, query or fragment.',
    hint: 'Give the address people and clients use to reach the sandbox, e.g. `npx signrun serve --host 0.0.0.0 --public-url http://sandbox.internal:8080` (see docs/sandbox.md, "On a network").',
  },
});
