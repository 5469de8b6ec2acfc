import type { AdminClient } from '../../client/admin/admin-client.js';
import type {
  AssetGroupAccountClone,
  AssetGroupAccountResponse,
  SubAccountCreateWorker,
} from '../../client/admin/admin-wire.js';

/** A creation or clone the organisation is still working on. */
export interface WorkInFlight {
  kind: 'create' | 'clone';
  assetGroupId: string;
  workId: string;
}

/** Whether a work's status says it is over, and how (DocuSign's words: Pending, Processing, Completed, ProcessingError…). */
export function workState(status: string | undefined): 'running' | 'done' | 'failed' {
  if (/complete|success/i.test(status ?? '')) return 'done';
  if (/error|fail|cancel/i.test(status ?? '')) return 'failed';
  return 'running';
}

/**
 * What the organisation holds, as its Admin API lists it: its asset-group
 * accounts (the record of which accounts exist, by name, as envelopes'
 * custom fields are the record of envelopes) and the creations and clones
 * it is still working on (a run killed while one ran finds it here and
 * follows it instead of asking again). Read once per command and
 * organisation: three calls.
 */
export class OrganizationRecord {
  readonly accounts: AssetGroupAccountResponse[];
  readonly creations: SubAccountCreateWorker[];
  readonly clones: AssetGroupAccountClone[];

  private constructor(
    accounts: AssetGroupAccountResponse[],
    creations: SubAccountCreateWorker[],
    clones: AssetGroupAccountClone[],
  ) {
    this.accounts = accounts;
    this.creations = creations;
    this.clones = clones;
  }

  static readonly reads = 3;

  static async read(admin: AdminClient, tag: string): Promise<OrganizationRecord> {
    const [accounts, creations, clones] = await Promise.all([
      admin.assetGroupAccounts({ tag }),
      admin.accountCreations({ tag }),
      admin.accountClones({ tag }),
    ]);
    return new OrganizationRecord(accounts, creations, clones);
  }

  /** The organisation's account of this id. */
  accountById(accountId: string): AssetGroupAccountResponse | undefined {
    return this.accounts.find((a) => a.accountId?.toLowerCase() === accountId.toLowerCase());
  }

  /** The organisation's account of this name (signrun's identity of an account it provisions; names compared ignoring case). */
  accountNamed(name: string): AssetGroupAccountResponse | undefined {
    return this.accounts.find((a) => a.accountName?.toLowerCase() === name.toLowerCase());
  }

  /** A creation or clone of an account of this name that is still running. */
  workFor(name: string): WorkInFlight | undefined {
    const same = (target: { name?: string } | undefined) => target?.name?.toLowerCase() === name.toLowerCase();
    const creation = this.creations.find((w) => same(w.targetAccount) && workState(w.status) === 'running');
    if (creation?.assetGroupId && creation.assetGroupWorkId)
      return { kind: 'create', assetGroupId: creation.assetGroupId, workId: creation.assetGroupWorkId };
    const clone = this.clones.find((w) => same(w.targetAccount) && workState(w.status) === 'running');
    if (clone?.assetGroupId && clone.assetGroupWorkId)
      return { kind: 'clone', assetGroupId: clone.assetGroupId, workId: clone.assetGroupWorkId };
    return undefined;
  }
}

/** The records of one command, read once per organisation. */
export class OrganizationRecords {
  readonly #records = new Map<string, Promise<OrganizationRecord>>();
  reads = 0;

  of(admin: AdminClient): Promise<OrganizationRecord> {
    let record = this.#records.get(admin.organizationId);
    if (!record) {
      this.reads += OrganizationRecord.reads;
      record = OrganizationRecord.read(admin, `organization/${admin.organizationId}`);
      this.#records.set(admin.organizationId, record);
    }
    return record;
  }
}
