import { parse } from 'csv-parse/sync';
import { stringify } from 'csv-stringify/sync';
import type { AdminClient } from '../../../client/admin/admin-client.js';
import { followWork } from '../../organization/follow-work.js';
import { digestOf, itemDecision, settledOutcome, shown } from '../item-decision.js';
import type { AccountResourceKind, OrganizationContext } from '../resource-kind.js';
import { users } from './users.js';

// DocuSign's account settings kept as code (`settings:` of an entry with
// organizationId; accountSettingsInformation's names, checked at load):
// read through the organisation's settings export, written through its
// settings import (DocuSign's Admin API, CSV: a `setting` column, then one
// column per account). Each setting is an item: what differs, and whether
// it was changed outside signrun (the journal's digest is the file's).

declare module '../../plan-types.js' {
  interface FoundPeople {
    /** The account's settings as its organisation exports them (accountSettingsInformation names), read only when the entry keeps some. */
    settings?: Record<string, string>;
  }
}

/** The settings of one account, as its organisation exports them. */
export async function exportedSettings(
  organization: OrganizationContext,
  tag: string,
): Promise<Record<string, string>> {
  const { admin, accountId } = organization;
  const started = await admin.exportSettings([accountId], { tag });
  const done = await followWork(
    `${tag}: the organisation's settings export`,
    () => admin.settingsExport(started.id!, { tag }),
    organization.delay,
  );
  const url = done.results?.find((r) => r.url)?.url;
  if (!url) return {};
  return settingsOfCsv(await admin.csvAt(url, { tag }), accountId);
}

/** One account's column of a settings CSV (`setting,<accountId>,…`): the settings that are set. */
export function settingsOfCsv(csv: string, accountId: string): Record<string, string> {
  const rows: string[][] = parse(csv, { bom: true, skip_empty_lines: true, relax_column_count: true });
  const [header, ...body] = rows;
  const column = header?.findIndex((h) => h.trim().toLowerCase() === accountId.toLowerCase()) ?? -1;
  if (column < 1) return {};
  return Object.fromEntries(body.filter((r) => (r[column] ?? '') !== '').map((r) => [r[0]!.trim(), r[column]!]));
}

/** Writes settings into one account through the organisation's import, followed to its end. */
async function importSettings(
  admin: AdminClient,
  organization: OrganizationContext,
  values: Record<string, string>,
  tag: string,
): Promise<string[]> {
  const csv = stringify([['setting', organization.accountId], ...Object.entries(values)]);
  const started = await admin.importSettings(csv, { tag });
  const done = await followWork(
    `${tag}: the organisation's settings import`,
    () => admin.settingsImport(started.id!, { tag }),
    organization.delay,
  );
  return (done.results ?? []).flatMap((r) =>
    (r.processing_issues_by_account ?? []).map(
      (issue) => `${issue['account_id'] ?? ''}: ${issue['error'] ?? 'refused'}`,
    ),
  );
}

export const accountSettings = {
  kind: 'setting' as const,
  // Kept through the organisation, after the account's people: where plans, journals and imports list it.
  after: [users.kind],
  words: { one: 'setting', summary: 'settings' },
  through: 'organization' as const,
  count: (account) => Object.keys(account.settings ?? {}).length,
  async read(account, found, { organization, tag }) {
    if (organization && Object.keys(account.settings ?? {}).length > 0)
      found.settings = await exportedSettings(organization, tag);
  },
  // The export, about one look at its status, and its CSV.
  readCalls: (_account, found) => (found.settings ? 3 : 0),
  decide: (account, found, journal) =>
    Object.entries(account.settings ?? {}).map(([name, value]) => {
      const there = found.settings?.[name];
      return itemDecision(
        account,
        {
          kind: 'setting',
          name,
          digest: digestOf({ name, value }),
          // Every account has every setting: read, it is there (to update or not); unread, it is set.
          id: found.settings ? name : undefined,
          differences: there === value ? [] : [`${name}: ${shown(there)} → ${shown(value)}`],
        },
        journal,
      );
    }),
  // One import, about one look at its status.
  calls: (plans) => (plans.some((p) => p.action === 'create' || p.action === 'update') ? 2 : 0),
  async converge(account, plans, ctx) {
    const writes = plans.filter((p) => p.action === 'create' || p.action === 'update');
    for (const p of plans) if (!writes.includes(p)) await ctx.done(p, settledOutcome(p.action), p.name);
    if (writes.length === 0) return;
    if (!ctx.organization) {
      for (const p of writes)
        ctx.failed(p, ctx.refused(`setting ${p.name}`, 'the account has no organisation to set it through'));
      return;
    }
    const values = Object.fromEntries(writes.map((p) => [p.name, account.settings![p.name]!]));
    try {
      const issues = await importSettings(ctx.organization.admin, ctx.organization, values, ctx.tag);
      if (issues.length > 0) throw ctx.refused('the settings import', issues.join('; '));
      for (const p of writes) await ctx.done(p, p.action === 'create' ? 'created' : 'updated', p.name);
    } catch (error) {
      for (const p of writes) ctx.failed(p, error);
    }
  },
} satisfies AccountResourceKind;
