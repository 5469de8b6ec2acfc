import { defineCodes } from '../catalogue-entry.js';

/** Codes for signrun's own configuration (cosmiconfig, module name `signrun`) and credentials. */
export const configCodes = defineCodes({
  SR_CONFIG_INVALID: {
    exitCode: 2,
    summary: 'The signrun configuration file does not match its schema.',
    hint: 'Fix the field named in the message; see schemas/config.schema.json.',
  },
});
