import { accountSettings } from './account-settings.js';
import { accountTemplates } from './account-templates.js';
import { brands } from './brands.js';
import { connectConfigurations } from './connect-configurations.js';
import { groups } from './groups.js';
import { permissionProfiles } from './permission-profiles.js';
import type { AccountResourceKind } from './resource-kind.js';
import { users } from './users.js';
import { organizationUsers } from './organization-users.js';

/**
 * The catalogue of what an account entry keeps inside the account, in
 * dependency order: the order a plan lists them and a run converges them
 * (groups name profiles; users name both; an organisation's settings and
 * users are kept through its Admin API; templates last). The planner, the
 * pipeline, `signrun plan`, the console and `import account` walk it; the
 * loader's list of the kinds' job side (src/jobs/account-entries/account-entry-kinds.ts),
 * report.json's `kind` enum and the job schema's account fields are generated
 * from it by `npm run docs:kinds` (test/runner/kind-files.test.ts fails when
 * one is stale). A new kind is its module, its job side and one line here.
 */
export const resourceKinds = [
  permissionProfiles,
  groups,
  users,
  accountSettings,
  brands,
  connectConfigurations,
  organizationUsers,
  accountTemplates,
] as const satisfies readonly AccountResourceKind[];

/** A kind's name as signrun's records write it (`permissionProfile`, `group`, …). */
export type ResourceKindName = (typeof resourceKinds)[number]['kind'];

/** The kinds' names, in the catalogue's order. */
export const resourceKindNames: readonly ResourceKindName[] = resourceKinds.map((k) => k.kind);

/** The catalogue's entry of a kind (undefined for a name it does not have). */
export function resourceKindOf(kind: string): AccountResourceKind | undefined {
  return resourceKinds.find((k) => k.kind === kind);
}
