import type { Tabs } from '../../envelope/index.js';
/**
 * A sandbox seed: what `serve --seed FILE` loads (YAML, validated by
 * schemas/seed.schema.json) and what the built-in default seed is. Applied
 * once, to an empty database; a restart with data keeps its state.
 */
export interface Seed {
  /** Integrator keys the service accepts. */
  integratorKeys: string[];
  /**
   * Redirect URIs registered per integrator key (DocuSign's Apps and Keys):
   * where the consent page (/oauth/auth) may send a browser back, besides
   * DocuSign's consent page and loopback addresses, which every key has.
   */
  oauthRedirectUris?: Record<string, string[]>;
  accounts: SeedAccount[];
}

export interface SeedAccount {
  /** Default: a random GUID. */
  accountId?: string;
  accountName: string;
  /** Default `sandbox-plan`. */
  planId?: string;
  /** Present: the account may act as a distributor and create subsidiary accounts. */
  distributor?: { code: string; password: string };
  users: SeedUser[];
  templates?: SeedTemplate[];
  /** Key of the HMAC that signs this account's Connect messages (`X-DocuSign-Signature-1`). Default `sandbox-connect-hmac-key`. */
  connectHmacKey?: string;
}

export interface SeedUser {
  /** Default: a random GUID. */
  userId?: string;
  userName: string;
  /** Default: userName. */
  email?: string;
  password: string;
  /** Consents already given on the consent page (/oauth/auth): the JWT grant works at once for these. */
  oauthConsents?: SeedConsent[];
}

export interface SeedConsent {
  integratorKey: string;
  /** Space-separated, e.g. `signature impersonation`. */
  scopes: string;
}

export interface SeedTemplate {
  templateId: string;
  name: string;
  emailSubject?: string;
  emailBlurb?: string;
  documents: SeedTemplateDocument[];
  roles: SeedTemplateRole[];
}

export interface SeedTemplateDocument {
  documentId: string;
  name: string;
  /** PDF path, relative to the seed file. Absent: a generated one-page PDF titled with `name`. */
  file?: string;
}

export interface SeedTemplateRole {
  roleName: string;
  /** A string holding a number, as DocuSign returns it (2.6). Default "1". */
  routingOrder?: string;
  /** Default: position + 1. */
  recipientId?: string;
  /** DocuSign's EnvelopeRecipientTabs: one list per tab collection (src/envelope/tab-kinds.ts), values as strings. */
  tabs?: Tabs;
}
