// Generated from the catalogue of resource kinds (src/runner/resources/resource-kinds.ts) by
// `npm run docs:kinds` (src/runner/resources/kind-files.ts). Do not edit by hand.
import type { AccountEntryKind } from './account-entry-kind.js';
import { brandsEntry } from './brands.js';
import { connectEntry } from './connect.js';
import { groupsEntry } from './groups.js';
import { permissionProfilesEntry } from './permission-profiles.js';
import { usersEntry } from './users.js';

/** The job file's side of the catalogue's kinds that an account entry keeps, in the catalogue's order. */
export const accountEntryKinds: readonly AccountEntryKind[] = [
  permissionProfilesEntry,
  groupsEntry,
  usersEntry,
  brandsEntry,
  connectEntry,
];
