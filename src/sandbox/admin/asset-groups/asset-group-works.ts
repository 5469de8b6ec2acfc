import { randomUUID } from 'node:crypto';
import type { AdminServices } from '../admin-services.js';
import type { OrganizationsStore } from '../organizations/organizations-store.js';
import type { AccountSettingsStore } from '../../esignature/accounts/settings-store.js';
import { provisionAccount, type TargetAccountRequest } from './provision-account.js';

export type { TargetAccountRequest } from './provision-account.js';
import { copyAccountConfiguration } from './copy-account-configuration.js';

/** DocuSign's two kinds of asset-group work the sandbox does. */
export type WorkType = 'AccountAssetCreate' | 'AccountAssetClone';
export type WorkStatus = 'Pending' | 'Completed' | 'ProcessingError';

/** What a work was asked to do: the target account, and the plan item (create) or source account (clone). */
export interface WorkRequest {
  targetAccount: TargetAccountRequest;
  subscription?: { id: string; planId: string; planName: string; modules: unknown[] };
  sourceAccount?: { id: string; name: string; externalAccountId: number };
}

export interface WorkRecord {
  id: string;
  organizationId: string;
  assetGroupId: string;
  workType: WorkType;
  status: WorkStatus;
  request: WorkRequest;
  sourceAccountId: string | null;
  targetAccountId: string | null;
  createdAt: number;
  dueAt: number;
  updatedAt: number;
  createdByUserId: string;
  failure: { error: string; errorDescription: string } | null;
}

interface WorkRow {
  id: string;
  organization_id: string;
  asset_group_id: string;
  work_type: WorkType;
  status: WorkStatus;
  request_json: string;
  source_account_id: string | null;
  target_account_id: string | null;
  created_at: number;
  due_at: number;
  updated_at: number;
  created_by_user_id: string;
  failure_json: string | null;
}

const toWork = (r: WorkRow): WorkRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  assetGroupId: r.asset_group_id,
  workType: r.work_type,
  status: r.status,
  request: JSON.parse(r.request_json) as WorkRequest,
  sourceAccountId: r.source_account_id,
  targetAccountId: r.target_account_id,
  createdAt: r.created_at,
  dueAt: r.due_at,
  updatedAt: r.updated_at,
  createdByUserId: r.created_by_user_id,
  failure: r.failure_json === null ? null : (JSON.parse(r.failure_json) as WorkRecord['failure']),
});

export type AssetGroupWorks = ReturnType<typeof assetGroupWorks>;

/**
 * Account creation and cloning as DocuSign does them: asynchronous work,
 * Pending when asked, done once due (its time on the sandbox's clock has
 * come) by the first request or tick after that, in one transaction with
 * the account it makes — so a work is done exactly once, and a stopped
 * sandbox does it when it starts again.
 */
export function assetGroupWorks(
  sandbox: AdminServices,
  organizations: OrganizationsStore,
  settings: AccountSettingsStore,
  origin: () => string,
) {
  const { db } = sandbox;
  const q = {
    insert: db.prepare(
      `INSERT INTO asset_group_works (id, organization_id, asset_group_id, work_type, status, request_json,
         source_account_id, created_at, due_at, updated_at, created_by_user_id)
       VALUES (?, ?, ?, ?, 'Pending', ?, ?, ?, ?, ?, ?)`,
    ),
    byId: db.prepare<[string], WorkRow>('SELECT * FROM asset_group_works WHERE id = ?'),
    madeAccount: db.prepare<[string], WorkRow>(
      "SELECT * FROM asset_group_works WHERE target_account_id = ? AND status = 'Completed'",
    ),
    ofOrg: db.prepare<[string, string, number], WorkRow>(
      'SELECT * FROM asset_group_works WHERE organization_id = ? AND work_type = ? AND updated_at >= ? ORDER BY created_at, id',
    ),
    due: db.prepare<[number], WorkRow>(
      "SELECT * FROM asset_group_works WHERE status = 'Pending' AND due_at <= ? ORDER BY due_at, id",
    ),
    complete: db.prepare(
      "UPDATE asset_group_works SET status = 'Completed', target_account_id = ?, updated_at = ? WHERE id = ? AND status = 'Pending'",
    ),
    fail: db.prepare(
      "UPDATE asset_group_works SET status = 'ProcessingError', failure_json = ?, updated_at = ? WHERE id = ? AND status = 'Pending'",
    ),
  };

  function perform(work: WorkRecord, now: number): void {
    db.transaction(() => {
      if (work.workType === 'AccountAssetClone' && !sandbox.accountIsLive(work.sourceAccountId ?? '')) {
        const failure = { error: 'source_account_not_found', errorDescription: 'The source account no longer exists.' };
        q.fail.run(JSON.stringify(failure), now, work.id);
        return;
      }
      const accountId = provisionAccount(sandbox, work.request.targetAccount, {
        planId: work.request.subscription?.planId ?? sandbox.accounts.account(work.sourceAccountId ?? '')?.planId,
        now,
        origin: origin(),
      });
      organizations.addAccount(work.organizationId, accountId, work.assetGroupId, now);
      if (work.workType === 'AccountAssetClone' && work.sourceAccountId !== null) {
        copyAccountConfiguration(sandbox, work.sourceAccountId, accountId, now);
        settings.copy(work.sourceAccountId, accountId);
      }
      q.complete.run(accountId, now, work.id);
    })();
  }

  return {
    /** Records new work, due `delayMs` from now. */
    start(
      work: Pick<WorkRecord, 'organizationId' | 'assetGroupId' | 'workType' | 'request' | 'createdByUserId'> & {
        sourceAccountId?: string | null;
      },
      now: number,
      delayMs: number,
    ): WorkRecord {
      const id = randomUUID();
      q.insert.run(
        id,
        work.organizationId,
        work.assetGroupId,
        work.workType,
        JSON.stringify(work.request),
        work.sourceAccountId ?? null,
        now,
        now + delayMs,
        now,
        work.createdByUserId,
      );
      return toWork(q.byId.get(id)!);
    },
    work(id: string): WorkRecord | undefined {
      const row = q.byId.get(id.toLowerCase());
      return row && toWork(row);
    },
    /** The work that made this account (a creation or a clone); undefined for an account no work made (a seeded one). */
    madeAccount(accountId: string): WorkRecord | undefined {
      const row = q.madeAccount.get(accountId.toLowerCase());
      return row && toWork(row);
    },
    /** The organisation's works of a kind, changed since `since` (ms). */
    ofOrganization(organizationId: string, workType: WorkType, since = 0): WorkRecord[] {
      return q.ofOrg.all(organizationId, workType, since).map(toWork);
    },
    /** Does the work whose time has come. */
    settleDue(now: number): void {
      for (const row of q.due.all(now)) perform(toWork(row), now);
    },
  };
}
