import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { resolve, dirname } from 'node:path';
import type { SandboxDatabase } from '../platform/db/open-database.js';
import type { BlobStore } from '../platform/db/blob-store.js';
import type { AccountsRepository } from '../esignature/accounts/repository.js';
import type {
  TemplatesRepository,
  TemplateDocumentRecord,
  TemplateRoleRecord,
} from '../esignature/templates/repository.js';
import type { Clock } from '../platform/clock.js';
import type { Seed } from './seed-types.js';
import { hashSeedPassword } from '../platform/password-hash.js';
import { generatedDocument } from '../platform/pdf/generated-document.js';
import { quickPageCount } from '../platform/pdf/page-count.js';
import type { OAuthConsents } from '../oauth/oauth-consents.js';
import type { OAuthRedirectUris } from '../oauth/redirect-uris.js';
import { seedOrganizations } from './seed-organizations.js';

/** Where a seed's relative file paths start (the folder of the seed file); absent for the built-in seed. */
export interface ApplySeedOptions {
  baseDir?: string;
}

/**
 * Writes a seed into an empty database. The slow parts (scrypt, PDF files)
 * happen first; then one transaction inserts everything, so a seed is applied
 * whole or not at all.
 */
export async function applySeed(
  seed: Seed,
  deps: {
    db: SandboxDatabase;
    blobs: BlobStore;
    accounts: AccountsRepository;
    templates: TemplatesRepository;
    /** The account server's consents: a seed user may have consented already (`oauthConsents`). */
    consents: Pick<OAuthConsents, 'grant'>;
    /** The account server's redirect URIs per key (`oauthRedirectUris`). */
    redirectUris: Pick<OAuthRedirectUris, 'register'>;
    clock: Clock;
  },
  options: ApplySeedOptions = {},
): Promise<void> {
  const now = deps.clock.now();
  const prepared = await Promise.all(
    seed.accounts.map(async (account) => {
      // Ids compare without case on the wire (GUIDs): stored lower-case.
      const accountId = (account.accountId ?? randomUUID()).toLowerCase();
      // scrypt runs on libuv's thread pool: users and the distributor password are hashed together.
      const distributorHash = account.distributor
        ? hashSeedPassword(account.distributor.password)
        : Promise.resolve(null);
      const users = await Promise.all(
        account.users.map(async (u) => ({
          id: (u.userId ?? randomUUID()).toLowerCase(),
          accountId,
          userName: u.userName,
          email: u.email ?? u.userName,
          passwordHash: await hashSeedPassword(u.password),
          activated: true,
          createdAt: now,
          consents: u.oauthConsents ?? [],
        })),
      );
      const templates = await Promise.all(
        (account.templates ?? []).map(async (t) => {
          const documents: TemplateDocumentRecord[] = [];
          for (const [position, d] of t.documents.entries()) {
            const bytes = d.file
              ? await readFile(resolve(options.baseDir ?? process.cwd(), d.file))
              : await generatedDocument(t.name, [`Template ${t.templateId}`, `Document ${d.documentId}: ${d.name}`]);
            documents.push({
              documentId: d.documentId,
              position,
              name: d.name,
              sha256: deps.blobs.put(bytes),
              size: bytes.length,
              pages: quickPageCount(bytes),
            });
          }
          const roles: TemplateRoleRecord[] = t.roles.map((r, position) => ({
            position,
            recipientId: r.recipientId ?? String(position + 1),
            roleName: r.roleName,
            routingOrder: r.routingOrder ?? '1',
            tabs: r.tabs ?? {},
            kind: 'signer',
            fixed: {},
            accessCodeHash: null,
          }));
          return { template: t, documents, roles };
        }),
      );
      return {
        account: {
          id: accountId,
          name: account.accountName,
          planId: account.planId ?? 'sandbox-plan',
          distributorCode: account.distributor?.code ?? null,
          distributorPasswordHash: await distributorHash,
          parentAccountId: null,
          status: 'active' as const,
          createdAt: now,
        },
        users,
        templates,
        details: account.connectHmacKey === undefined ? {} : { connectHmacKey: account.connectHmacKey },
      };
    }),
  );
  deps.db.transaction(() => {
    for (const key of seed.integratorKeys) deps.accounts.addIntegratorKey(key);
    for (const [key, uris] of Object.entries(seed.oauthRedirectUris ?? {})) deps.redirectUris.register(key, uris);
    for (const p of prepared) {
      deps.accounts.insertAccount(p.account, p.details);
      for (const { consents, ...u } of p.users) {
        deps.accounts.insertUser(u);
        for (const c of consents) deps.consents.grant(c.integratorKey, u.id, c.scopes.trim().split(/\s+/), now);
      }
      for (const t of p.templates) {
        deps.templates.insert(
          {
            id: t.template.templateId,
            accountId: p.account.id,
            name: t.template.name,
            description: null,
            emailSubject: t.template.emailSubject ?? null,
            emailBlurb: t.template.emailBlurb ?? null,
            ownerUserId: null,
            createdAt: now,
            lastModifiedAt: now,
            customFields: [],
          },
          t.documents,
          t.roles,
        );
      }
    }
    seedOrganizations(
      deps.db,
      seed.organizations ?? [],
      prepared.map((p) => ({ id: p.account.id, name: p.account.name, users: p.users })),
      now,
    );
  })();
}

/** The folder a seed file's relative paths are resolved from. */
export function seedBaseDir(seedFile: string): string {
  return dirname(resolve(seedFile));
}
