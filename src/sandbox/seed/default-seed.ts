import type { Seed } from './seed-types.js';

/** Ids of the built-in seed, stable so that tests and examples can name them. */
export const defaultSeedIds = {
  accountId: '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11',
  userId: '7c1e9b2d-4a6f-4d3e-8b5a-2f0e6d9c4b22',
  templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
  organizationId: '0b6f5d2a-8c3e-4e71-9f4a-6a1d2c3b4e55',
  subscriptionId: '9e2d4c6b-1a3f-4b5d-8e7c-3f1a2b4c5d66',
  assetGroupId: 'c4a1e3f5-7b9d-4c2e-a6f8-1d3b5a7c9e77',
} as const;

/** DocuSign's admin scopes (DESIGN.md, the organisation's contract), to which the seed user has consented. */
export const seedAdminScopes =
  'organization_read user_read user_write account_read account_write group_read permission_read asset_group_account_read asset_group_account_clone_read asset_group_account_clone_write organization_sub_account_read organization_sub_account_write domain_read identity_provider_read user_data_redact';

/** The default seed of DESIGN.md ("Sandbox default seed"): the values any signrun user can rely on. */
export const defaultSeed: Seed = {
  integratorKeys: ['sandbox-integrator-key'],
  accounts: [
    {
      accountId: defaultSeedIds.accountId,
      accountName: 'Sandbox Corp',
      planId: 'sandbox-plan',
      distributor: { code: 'SANDBOX-DISTRIBUTOR', password: 'sandbox-distributor-password' },
      users: [
        {
          userId: defaultSeedIds.userId,
          userName: 'sandbox@signrun.test',
          email: 'sandbox@signrun.test',
          password: 'sandbox-password',
          // DESIGN.md: the seed user has consented, so the JWT grant needs only a registered key pair.
          oauthConsents: [
            { integratorKey: 'sandbox-integrator-key', scopes: `signature impersonation ${seedAdminScopes}` },
          ],
        },
      ],
      templates: [
        {
          templateId: defaultSeedIds.templateId,
          name: 'Employment contract',
          emailSubject: 'Please sign your employment contract',
          emailBlurb: 'Your employment contract is ready for your signature.',
          documents: [{ documentId: '1', name: 'Employment contract.pdf' }],
          roles: [
            {
              roleName: 'employee',
              routingOrder: '1',
              recipientId: '1',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '620' }] },
            },
            {
              roleName: 'employer',
              routingOrder: '1',
              recipientId: '2',
              tabs: { signHereTabs: [{ documentId: '1', pageNumber: '1', xPosition: '350', yPosition: '620' }] },
            },
          ],
        },
      ],
    },
  ],
  organizations: [
    {
      organizationId: defaultSeedIds.organizationId,
      name: 'Sandbox Org',
      accounts: [defaultSeedIds.accountId],
      administrators: [defaultSeedIds.userId],
      planItems: [
        {
          planId: 'sandbox-plan',
          planName: 'Sandbox Plan',
          subscriptionId: defaultSeedIds.subscriptionId,
          assetGroupId: defaultSeedIds.assetGroupId,
        },
      ],
    },
  ],
};
