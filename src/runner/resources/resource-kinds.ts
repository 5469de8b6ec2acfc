// Generated from the kind modules of src/runner/resources/ by `npm run docs:kinds`
// (src/runner/resources/kind-files.ts): each kind's place comes from its `after`. Do not edit by hand.
import type { AccountResourceKind } from './resource-kind.js';
import { accountSettings } from './kinds/account-settings.js';
import { accountTemplates } from './kinds/account-templates.js';
import { brands } from './kinds/brands.js';
import { connectConfigurations } from './kinds/connect-configurations.js';
import { groups } from './kinds/groups.js';
import { organizationUsers } from './kinds/organization-users.js';
import { permissionProfiles } from './kinds/permission-profiles.js';
import { users } from './kinds/users.js';

/**
 * The catalogue of what an account entry keeps inside the account, in
 * dependency order (each kind after the kinds its `after` names): the order a
 * plan lists them, a run converges them and `import account` writes them.
 * The planner, the pipeline, `signrun plan`, the console and the import walk it.
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
