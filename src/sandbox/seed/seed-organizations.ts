import { randomUUID } from 'node:crypto';
import { SignrunError } from '../../errors/signrun-error.js';
import type { SandboxDatabase } from '../platform/db/open-database.js';
import type { SeedOrganization } from './seed-types.js';
import { organizationsStore } from '../admin/organizations/organizations-store.js';

/** An account of the seed as written: its id, name and users. */
interface SeededAccount {
  id: string;
  name: string;
  users: ReadonlyArray<{ id: string; userName: string }>;
}

/**
 * Writes a seed's organisations (inside the seed's transaction): each with
 * its accounts (named by accountName or accountId) in the first plan item's
 * asset group, its administrators (by userName or userId) and plan items. A
 * name that designates nothing of the seed is an error: the seed is applied
 * whole or not at all.
 */
export function seedOrganizations(
  db: SandboxDatabase,
  organizations: readonly SeedOrganization[],
  accounts: readonly SeededAccount[],
  now: number,
): void {
  const store = organizationsStore(db);
  for (const seed of organizations) {
    const organizationId = (seed.organizationId ?? randomUUID()).toLowerCase();
    const held = seed.accounts.map((ref) => {
      const account = accounts.find((a) => a.id === ref.toLowerCase() || a.name === ref);
      if (!account)
        throw new SignrunError('SR_SANDBOX_SEED', `organization ${seed.name}: no account of the seed is named ${ref}`);
      return account;
    });
    const users = held.flatMap((a) => a.users);
    const admins = seed.administrators.map((ref) => {
      const user = users.find((u) => u.id === ref.toLowerCase() || u.userName === ref);
      if (!user)
        throw new SignrunError('SR_SANDBOX_SEED', `organization ${seed.name}: no user of its accounts is named ${ref}`);
      return user;
    });
    store.insert({
      id: organizationId,
      name: seed.name,
      description: null,
      defaultAccountId: held[0]?.id ?? null,
      createdAt: now,
      createdBy: admins[0]?.id ?? null,
    });
    const assetGroupIds = seed.planItems.map((item) => {
      const assetGroupId = (item.assetGroupId ?? randomUUID()).toLowerCase();
      store.addPlanItem({
        organizationId,
        subscriptionId: (item.subscriptionId ?? randomUUID()).toLowerCase(),
        planId: item.planId,
        planName: item.planName ?? item.planId,
        subscriptionName: `${seed.name} subscription`,
        assetGroupId,
        assetGroupName: `${seed.name} ${item.planName ?? item.planId}`,
        modules: [],
      });
      return assetGroupId;
    });
    for (const account of held) store.addAccount(organizationId, account.id, assetGroupIds[0]!, now);
    for (const admin of admins) store.addAdministrator(organizationId, admin.id);
  }
}
