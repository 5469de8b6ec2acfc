import { stringify } from 'csv-stringify/sync';
import type { AdminContext } from '../admin-context.js';
import { adminTime } from '../admin-wire.js';
import type { BulkJobRecord } from './bulk-jobs.js';
import { organizationPeople, permissionProfileOf } from '../users/organization-users.js';
import { membershipStatus, personStatus } from '../users/user-wire.js';

/** The columns of the sandbox's user list export: one row per membership. */
const exportColumns = [
  'AccountId',
  'AccountName',
  'UserId',
  'UserName',
  'FirstName',
  'LastName',
  'UserEmail',
  'PermissionSet',
  'UserStatus',
  'MembershipStatus',
  'MembershipCreatedOn',
] as const;

/** Does a user list export: the organisation's memberships (of the selected accounts, when some are). */
export function performUserExport(context: AdminContext, job: BulkJobRecord) {
  const selected = Array.isArray(job.request['accounts'])
    ? new Set((job.request['accounts'] as Array<{ account_id: string }>).map((a) => a.account_id.toLowerCase()))
    : undefined;
  const names = new Map(context.organizations.accounts(job.organizationId).map((a) => [a.accountId, a.accountName]));
  const rows = organizationPeople(context, job.organizationId).flatMap((person) =>
    person.memberships
      .filter((m) => selected === undefined || selected.has(m.accountId))
      .map((m) => [
        m.accountId,
        names.get(m.accountId) ?? '',
        person.id,
        m.userName,
        m.details?.['firstName'] ?? '',
        m.details?.['lastName'] ?? '',
        m.email,
        permissionProfileOf(context, m).name,
        personStatus(person),
        membershipStatus(m),
        adminTime(m.createdAt) ?? '',
      ]),
  );
  return { result: { number_rows: rows.length }, csv: stringify([[...exportColumns], ...rows]) };
}
