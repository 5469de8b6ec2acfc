import type { Seed } from './seed-types.js';

/** Ids of the built-in seed, stable so that tests and examples can name them. */
export const defaultSeedIds = {
  accountId: '5a3f0c4e-2b7d-4f1a-9e6c-8d2b1a0f3c11',
  userId: '7c1e9b2d-4a6f-4d3e-8b5a-2f0e6d9c4b22',
  templateId: '3c9f4bb2-6d1e-4a5e-9a57-5d1a1c0f7e01',
} as const;

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
          oauthConsents: [{ integratorKey: 'sandbox-integrator-key', scopes: 'signature impersonation' }],
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
};
