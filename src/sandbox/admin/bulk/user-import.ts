import type { AdminContext } from '../admin-context.js';
import { AdminError } from '../admin-error.js';
import type { BulkJobRecord } from './bulk-jobs.js';
import { importResultsCsv, parseImportCsv, type ImportRow } from './user-import-csv.js';
import { addMembership, organizationPeople } from '../users/organization-users.js';

/** DocuSign's names of the built-in profiles, as its example CSVs write them, for the sandbox's own. */
const profileAliases: Record<string, string> = {
  'ds admin': 'Account Administrator',
  'ds sender': 'DocuSign Sender',
  'ds viewer': 'DocuSign Viewer',
};

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A row's outcome: DocuSign's error_type, and words for people (with the CSV line). */
interface RowOutcome {
  type: string;
  detail?: string;
}

/**
 * Does a bulk user import (add, update, close): row by row, each row's
 * outcome in DocuSign's words (`user_added`, `invalid_permissionset` …) in
 * the results CSV's ProcessingResults column with its line, and the counts
 * and rollups of `OrganizationImportResponse`.
 */
export function performUserImport(context: AdminContext, job: BulkJobRecord, now: number) {
  const { sandbox } = context;
  const accountFromPath = typeof job.request['accountId'] === 'string' ? job.request['accountId'] : undefined;
  const file = parseImportCsv(job.inputCsv ?? '', accountFromPath === undefined);
  const accounts = new Set(context.organizations.accounts(job.organizationId).map((a) => a.accountId));
  const people = new Map(organizationPeople(context, job.organizationId).map((p) => [p.email.toLowerCase(), p]));
  const results = new Map<number, string>();
  const counts = { added: 0, updated: 0, closed: 0, noAction: 0, errors: 0 };
  const errorRollups = new Map<string, number>();

  const profileOf = (accountId: string, name: string | undefined) => {
    if (name === undefined) return undefined;
    const profile = sandbox.permissionProfiles.byName(accountId, profileAliases[name.toLowerCase()] ?? name);
    if (!profile)
      throw new AdminError(400, 'invalid_permissionset', `account ${accountId} has no permission set ${name}`);
    return profile;
  };
  const groupsOf = (accountId: string, names: string | undefined) =>
    (names ?? '')
      .split(/[;|]/)
      .map((n) => n.trim())
      .filter((n) => n !== '')
      .map((name) => {
        const group = sandbox.groups.byName(accountId, name);
        if (!group) throw new AdminError(400, 'invalid_group', `account ${accountId} has no group ${name}`);
        return group.id;
      });

  const perform = (row: ImportRow): RowOutcome => {
    const c = row.cells;
    const accountId = (c.AccountID ?? accountFromPath ?? '').toLowerCase();
    if (!accountId || !accounts.has(accountId))
      return {
        type: 'invalid_account_id',
        detail: `${c.AccountID ?? '(empty)'} is not an account of the organization`,
      };
    const email = c.UserEmail;
    if (!email || !emailPattern.test(email))
      return { type: 'invalid_useremail_address', detail: `${email ?? '(empty)'} is not an email address` };
    const person = people.get(email.toLowerCase());
    const membership = person?.memberships.find((m) => m.accountId === accountId && (m.closedAt ?? null) === null);
    if (job.type === 'close' || job.type === 'close_external') {
      if (!membership) return { type: 'membership_not_in_account', detail: `${email} is not a member of ${accountId}` };
      sandbox.accounts.closeUser(membership.id, now);
      counts.closed += 1;
      return { type: 'user_closed' };
    }
    if (job.type === 'update') {
      if (!membership) return { type: 'membership_not_in_account', detail: `${email} is not a member of ${accountId}` };
      const profile = profileOf(accountId, c.PermissionSet);
      const details = { ...(membership.details ?? {}) };
      if (c.FirstName) details['firstName'] = c.FirstName;
      if (c.LastName) details['lastName'] = c.LastName;
      if (c.UserTitle) details['jobTitle'] = c.UserTitle;
      if (c.CompanyName) details['company'] = c.CompanyName;
      const groupIds = groupsOf(accountId, c.Groups);
      sandbox.accounts.updateUser(membership.id, {
        details,
        ...(c.UserName ? { userName: c.UserName } : {}),
        ...(profile ? { permissionProfileId: profile.id } : {}),
      });
      for (const id of groupIds) sandbox.groups.addMember(id, membership.id);
      counts.updated += 1;
      return { type: 'user_updated' };
    }
    if (membership) {
      counts.noAction += 1;
      return { type: 'no_action_taken_user_exists', detail: `${email} already is a member of ${accountId}` };
    }
    const userName = c.UserName ?? ([c.FirstName, c.LastName].filter(Boolean).join(' ') || email);
    const user = addMembership(context, {
      accountId,
      email,
      userName,
      firstName: c.FirstName,
      lastName: c.LastName,
      permissionProfileId: profileOf(accountId, c.PermissionSet)?.id,
      groupIds: groupsOf(accountId, c.Groups),
      companyName: c.CompanyName,
      jobTitle: c.UserTitle,
      activate: c.AutoActivate?.toLowerCase() === 'true',
      now,
    });
    const known = people.get(email.toLowerCase());
    people.set(email.toLowerCase(), {
      id: known?.id ?? user.id,
      email,
      memberships: [...(known?.memberships ?? []), user],
    });
    counts.added += 1;
    return { type: 'user_added' };
  };

  for (const row of file.rows) {
    let outcome: RowOutcome;
    try {
      outcome = perform(row);
    } catch (error) {
      if (!(error instanceof AdminError)) throw error;
      const type =
        /^[a-z_]+$/.test(error.error) && error.error !== 'invalid_request' ? error.error : 'invalid_row_data';
      outcome = { type, detail: error.message };
    }
    const success = ['user_added', 'user_updated', 'user_closed', 'no_action_taken_user_exists'].includes(outcome.type);
    if (!success) {
      counts.errors += 1;
      errorRollups.set(outcome.type, (errorRollups.get(outcome.type) ?? 0) + 1);
    }
    results.set(row.line, outcome.detail ? `${outcome.type}: line ${row.line}: ${outcome.detail}` : outcome.type);
  }
  return {
    result: {
      user_count: file.rows.length,
      processed_user_count: file.rows.length,
      added_user_count: counts.added,
      updated_user_count: counts.updated,
      closed_user_count: counts.closed,
      no_action_required_user_count: counts.noAction,
      error_count: counts.errors,
      warning_count: 0,
      invalid_column_headers: file.unknownHeaders.join(','),
      user_level_error_rollups: [...errorRollups].map(([error_type, count]) => ({ error_type, count })),
    },
    csv: importResultsCsv(file, results),
  };
}
