import { defineCodes } from '../catalogue-entry.js';

/** Codes for signrun's own configuration (cosmiconfig, module name `signrun`) and credentials. */
export const configCodes = defineCodes({
  SR_CONFIG_INVALID: {
    exitCode: 2,
    summary: 'The signrun configuration file does not match its schema.',
    hint: 'Fix the field named in the message; see schemas/config.schema.json.',
  },
  SR_CONFIG_SYNTAX: {
    exitCode: 2,
    summary: 'The signrun configuration file cannot be parsed (YAML, JSON or JavaScript error).',
    hint: 'Fix the syntax at the place shown.',
  },
  SR_CONFIG_NOT_FOUND: {
    exitCode: 2,
    summary: 'The configuration file named explicitly does not exist.',
    hint: 'Check the path of the configuration file given to signrun.',
  },
  SR_CONFIG_ENV_INVALID: {
    exitCode: 2,
    summary:
      'A DOCUSIGN_* environment variable has a value signrun cannot use (for example a root URL that is not http or https).',
    hint: 'Fix or unset the variable named in the message.',
  },
  SR_CONFIG_SECRET_IN_FILE: {
    exitCode: 2,
    summary: 'A password or token is written in the configuration file (warning): config files are often committed.',
    hint: 'Prefer the DOCUSIGN_* environment variables for secrets.',
  },
});
