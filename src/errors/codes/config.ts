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
  SR_CONFIG_PRIVATE_KEY: {
    exitCode: 2,
    summary: 'The RSA private key for the JWT grant cannot be read or is not a PEM private key.',
    hint: 'Point DOCUSIGN_PRIVATE_KEY_FILE at the private key saved when the RSA key pair was made (-----BEGIN RSA PRIVATE KEY-----), or put the PEM in DOCUSIGN_PRIVATE_KEY.',
  },
  SR_CONFIG_JWT_INCOMPLETE: {
    exitCode: 2,
    summary: 'Some of the JWT grant settings are configured but not all.',
    hint: 'Set DOCUSIGN_INTEGRATOR_KEY, DOCUSIGN_USER_ID, DOCUSIGN_PRIVATE_KEY_FILE (or DOCUSIGN_PRIVATE_KEY) and DOCUSIGN_OAUTH_BASE together (docs/docusign.md).',
  },
});
