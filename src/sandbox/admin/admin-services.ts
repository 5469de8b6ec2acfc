import type { SandboxDatabase } from '../platform/db/open-database.js';
import type { Clock } from '../platform/clock.js';
import type { Outbox } from '../platform/outbox.js';
import type { AccountsRepository } from '../esignature/accounts/repository.js';
import type { GroupsRepository } from '../esignature/groups/repository.js';
import type { PermissionProfilesRepository } from '../esignature/permission-profiles/repository.js';

/**
 * The part of the sandbox's services the Admin API's groups read and write.
 * services.ts assembles every group's stores and stands above the API
 * groups (its seed writes the Admin API's organisations), so the Admin API
 * names what it takes rather than importing that assembly; `app.sandbox`
 * is one of these.
 */
export interface AdminServices {
  db: SandboxDatabase;
  clock: Clock;
  accounts: AccountsRepository;
  groups: GroupsRepository;
  permissionProfiles: PermissionProfilesRepository;
  outbox: Outbox;
  /** Whether an account exists and is not deleted. */
  accountIsLive(accountId: string): boolean;
}
