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
  /** Organisations of DocuSign's Admin API (src/sandbox/admin): which accounts they hold, who administers them, their plan items. */
  organizations?: SeedOrganization[];
}

export interface SeedOrganization {
  /** Default: a random GUID. */
  organizationId?: string;
  name: string;
  /** The accounts it holds, by accountName or accountId (of this seed). The first is its default account. */
  accounts: string[];
  /** Its administrators, by userName or userId (users of its accounts). */
  administrators: string[];
  /** Its plan items (asset groups): the plans accounts are created from. */
  planItems: SeedPlanItem[];
}

export interface SeedPlanItem {
  planId: string;
  /** Default: the planId. */
  planName?: string;
  /** Default: a random GUID. */
  subscriptionId?: string;
  /** Default: a random GUID. The seed's accounts are in the first plan item's asset group. */
  assetGroupId?: string;
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
