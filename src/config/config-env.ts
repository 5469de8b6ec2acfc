/**
 * The environment variables of DESIGN.md ("Credentials"), named as in the
 * Python client the API description came from, and the config field each
 * one overrides.
 */
export const configEnvironment = {
  DOCUSIGN_ROOT_URL: 'rootUrl',
  DOCUSIGN_USERNAME: 'credentials.username',
  DOCUSIGN_PASSWORD: 'credentials.password',
  DOCUSIGN_INTEGRATOR_KEY: 'credentials.integratorKey',
  DOCUSIGN_ACCESS_TOKEN: 'credentials.accessToken',
  DOCUSIGN_DISTRIBUTOR_CODE: 'credentials.distributorCode',
  DOCUSIGN_DISTRIBUTOR_PASSWORD: 'credentials.distributorPassword',
  // DocuSign's JWT grant (DESIGN.md, "Contract: today's DocuSign").
  DOCUSIGN_USER_ID: 'credentials.userId',
  DOCUSIGN_PRIVATE_KEY_FILE: 'credentials.privateKeyFile',
  DOCUSIGN_PRIVATE_KEY: 'credentials.privateKey',
  DOCUSIGN_OAUTH_BASE: 'credentials.oauthBase',
  DOCUSIGN_ACCOUNT_ID: 'credentials.accountId',
  // DocuSign's Admin API (DESIGN.md, "Organisations as code"): its base, when not DocuSign's or the sandbox's.
  DOCUSIGN_ADMIN_BASE: 'credentials.adminBase',
  DOCUSIGN_API_VERSION: 'apiVersion',
} as const;

/** Credential fields that are secrets: wrapped with makeSecret, never printed. */
export const secretCredentialFields = ['password', 'accessToken', 'distributorPassword', 'privateKey'] as const;
