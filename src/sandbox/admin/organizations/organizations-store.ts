import type { SandboxDatabase } from '../../db/open-database.js';

/** An organisation (DocuSign's Admin API). */
export interface OrganizationRecord {
  id: string;
  name: string;
  description: string | null;
  defaultAccountId: string | null;
  createdAt: number;
  createdBy: string | null;
}

/** An account of an organisation, in its asset group. */
export interface OrganizationAccountRecord {
  accountId: string;
  accountName: string;
  organizationId: string;
  assetGroupId: string;
  externalAccountId: number;
  accountStatus: string;
}

/** A plan item of an organisation (`OrganizationSubscriptionResponse`): one asset group. */
export interface PlanItemRecord {
  organizationId: string;
  subscriptionId: string;
  planId: string;
  planName: string;
  subscriptionName: string;
  assetGroupId: string;
  assetGroupName: string;
  modules: unknown[];
}

interface OrganizationRow {
  id: string;
  name: string;
  description: string | null;
  default_account_id: string | null;
  created_at: number;
  created_by: string | null;
}

interface PlanItemRow {
  organization_id: string;
  subscription_id: string;
  plan_id: string;
  plan_name: string;
  subscription_name: string;
  asset_group_id: string;
  asset_group_name: string;
  modules_json: string;
}

const toOrganization = (r: OrganizationRow): OrganizationRecord => ({
  id: r.id,
  name: r.name,
  description: r.description,
  defaultAccountId: r.default_account_id,
  createdAt: r.created_at,
  createdBy: r.created_by,
});

const toPlanItem = (r: PlanItemRow): PlanItemRecord => ({
  organizationId: r.organization_id,
  subscriptionId: r.subscription_id,
  planId: r.plan_id,
  planName: r.plan_name,
  subscriptionName: r.subscription_name,
  assetGroupId: r.asset_group_id,
  assetGroupName: r.asset_group_name,
  modules: JSON.parse(r.modules_json) as unknown[],
});

/** DocuSign's external account ids are numbers; the sandbox counts from here. */
const firstExternalAccountId = 20_000_001;

export type OrganizationsStore = ReturnType<typeof organizationsStore>;

/**
 * Organisations, their accounts, administrators and plan items. An
 * administrator is a person: a user row of one of the organisation's
 * accounts, recognised through its email in the user's other accounts too.
 */
export function organizationsStore(db: SandboxDatabase) {
  const q = {
    byId: db.prepare<[string], OrganizationRow>('SELECT * FROM organizations WHERE id = ?'),
    administeredBy: db.prepare<[string], OrganizationRow>(
      `SELECT DISTINCT o.* FROM organizations o
         JOIN organization_admins a ON a.organization_id = o.id
         JOIN users u ON u.id = a.user_id
        WHERE u.email = ? COLLATE NOCASE
        ORDER BY o.created_at, o.id`,
    ),
    accounts: db.prepare<
      [string],
      {
        account_id: string;
        name: string;
        organization_id: string;
        asset_group_id: string;
        external_account_id: number;
        status: string;
      }
    >(
      `SELECT oa.account_id, a.name, oa.organization_id, oa.asset_group_id, oa.external_account_id, a.status
         FROM organization_accounts oa JOIN accounts a ON a.id = oa.account_id
        WHERE oa.organization_id = ? ORDER BY oa.added_at, oa.external_account_id`,
    ),
    accountOrg: db.prepare<[string], { organization_id: string; asset_group_id: string }>(
      'SELECT organization_id, asset_group_id FROM organization_accounts WHERE account_id = ?',
    ),
    nextExternalId: db.prepare<[], { n: number | null }>(
      'SELECT MAX(external_account_id) AS n FROM organization_accounts',
    ),
    addAccount: db.prepare(
      'INSERT OR IGNORE INTO organization_accounts (account_id, organization_id, asset_group_id, external_account_id, added_at) VALUES (?, ?, ?, ?, ?)',
    ),
    insert: db.prepare(
      'INSERT INTO organizations (id, name, description, default_account_id, created_at, created_by) VALUES (?, ?, ?, ?, ?, ?)',
    ),
    addAdmin: db.prepare('INSERT OR IGNORE INTO organization_admins (organization_id, user_id) VALUES (?, ?)'),
    planItems: db.prepare<[string], PlanItemRow>(
      'SELECT * FROM organization_plan_items WHERE organization_id = ? ORDER BY rowid',
    ),
    addPlanItem: db.prepare(
      `INSERT INTO organization_plan_items
         (organization_id, subscription_id, plan_id, plan_name, subscription_name, asset_group_id, asset_group_name, modules_json)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
    ),
  };
  return {
    organization(id: string): OrganizationRecord | undefined {
      const row = q.byId.get(id.toLowerCase());
      return row && toOrganization(row);
    },
    /** The organisations the person with this email administers. */
    administeredBy(email: string): OrganizationRecord[] {
      return q.administeredBy.all(email).map(toOrganization);
    },
    accounts(organizationId: string): OrganizationAccountRecord[] {
      return q.accounts.all(organizationId).map((r) => ({
        accountId: r.account_id,
        accountName: r.name,
        organizationId: r.organization_id,
        assetGroupId: r.asset_group_id,
        externalAccountId: r.external_account_id,
        accountStatus: r.status,
      }));
    },
    /** The organisation and asset group an account is in; undefined when in none. */
    organizationOfAccount(accountId: string): { organizationId: string; assetGroupId: string } | undefined {
      const row = q.accountOrg.get(accountId.toLowerCase());
      return row && { organizationId: row.organization_id, assetGroupId: row.asset_group_id };
    },
    /** Puts an account in the organisation's asset group (once); returns its external account id. */
    addAccount(organizationId: string, accountId: string, assetGroupId: string, now: number): void {
      const next = (q.nextExternalId.get()?.n ?? firstExternalAccountId - 1) + 1;
      q.addAccount.run(accountId, organizationId, assetGroupId, next, now);
    },
    insert(organization: OrganizationRecord): void {
      q.insert.run(
        organization.id,
        organization.name,
        organization.description,
        organization.defaultAccountId,
        organization.createdAt,
        organization.createdBy,
      );
    },
    addAdministrator(organizationId: string, userId: string): void {
      q.addAdmin.run(organizationId, userId);
    },
    planItems(organizationId: string): PlanItemRecord[] {
      return q.planItems.all(organizationId).map(toPlanItem);
    },
    addPlanItem(item: PlanItemRecord): void {
      q.addPlanItem.run(
        item.organizationId,
        item.subscriptionId,
        item.planId,
        item.planName,
        item.subscriptionName,
        item.assetGroupId,
        item.assetGroupName,
        JSON.stringify(item.modules),
      );
    },
  };
}
