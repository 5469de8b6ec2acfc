import type { ResolvedAccount } from '../../jobs/model.js';
import type { AccountPlan } from '../plan-types.js';
import type { JournalProgress } from '../../state/journal-progress.js';
import { identityOf } from '../identity.js';
import type { OrganizationAccess } from './admin-access.js';
import { OrganizationRecords, type OrganizationRecord } from './organization-record.js';
import { ClientHttpError } from '../../client/client-errors.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { decideOrganizationAccount, type ProvisionContext } from './organization-accounts.js';

/**
 * The plan of an entry of an organisation: what the organisation lists
 * (read once per organisation, three calls) and the journal decide it;
 * offline (no access): the journal alone.
 */
export async function planOrganizationAccount(
  account: ResolvedAccount,
  access: OrganizationAccess | undefined,
  records: OrganizationRecords,
  journal: JournalProgress | undefined,
): Promise<AccountPlan> {
  const identity = identityOf(account);
  const record = access ? await organizationRecordOf(account, access, records) : undefined;
  const { decision, apiCalls } = decideOrganizationAccount(account, record, journal?.accounts.get(identity));
  if (record && decision.action === 'create') refuseUnknownCloneSource(account, record);
  return { kind: 'account', job: account.job, key: account.key, identity, decision, apiCalls };
}

/**
 * A clone to ask for whose source, an accountId, the organisation does not
 * list: SR_ACCOUNT_CLONE_UNKNOWN (exit 2) at the entry's line, from `plan`
 * and before `run` sends anything — as docs/job-files.md promises — rather
 * than `plan` saying "clone" and `run` failing the account. (A source that
 * is another entry's key is checked offline, by validate.)
 */
function refuseUnknownCloneSource(account: ResolvedAccount, record: OrganizationRecord): void {
  const from = account.organization?.cloneOf;
  if (!from || !('accountId' in from) || record.accountById(from.accountId)) return;
  const listed = record.accounts.map((a) => `"${a.accountName}" (${a.accountId})`).join(', ');
  throw new SignrunError(
    'SR_ACCOUNT_CLONE_UNKNOWN',
    `account ${identityOf(account)}: cloneOf ${from.accountId} is not an account of organisation ${account.organization!.id}; its accounts: ${listed || '(none)'}`,
    { location: account.source },
  );
}

/**
 * What the entry's organisation lists. An organisation the Admin API does
 * not know for this login (404: a wrong organizationId, or a user who is not
 * one of its administrators) is said at the entry's line, with what to check.
 */
async function organizationRecordOf(
  account: ResolvedAccount,
  access: OrganizationAccess,
  records: OrganizationRecords,
): Promise<OrganizationRecord> {
  const id = account.organization!.id;
  try {
    return await records.of(await access.admin(id));
  } catch (error) {
    if (!(error instanceof ClientHttpError) || (error.status !== 404 && error.status !== 403)) throw error;
    throw new SignrunError(
      error.code,
      `account ${identityOf(account)}: organisation ${id} (its organizationId) cannot be read: ${error.message}`,
      {
        location: account.source,
        hint: "Check organizationId: the id of the organisation in DocuSign's Admin console, and that the user signrun logs in as is one of its administrators.",
        ...(error.details ? { details: error.details } : {}),
      },
    );
  }
}

/**
 * What a run lends the entries of its organisations: each organisation's
 * Admin API client and record, and the accounts' ids as the run learns them
 * (a clone waits for its source; the run starts sources first).
 */
export class OrganizationRun {
  readonly #access: OrganizationAccess;
  readonly #records: OrganizationRecords;
  readonly #ids = new Map<
    string,
    { promise: Promise<string>; resolve: (id: string) => void; reject: (e: unknown) => void }
  >();
  readonly #delay: ProvisionContext['delay'];
  readonly #signal: AbortSignal | undefined;

  constructor(
    access: OrganizationAccess,
    records: OrganizationRecords,
    plans: readonly AccountPlan[],
    delay: ProvisionContext['delay'],
    signal?: AbortSignal,
  ) {
    this.#access = access;
    this.#records = records;
    this.#delay = delay;
    this.#signal = signal;
    for (const plan of plans) if ('accountId' in plan.decision) this.learned(plan.identity, plan.decision.accountId);
  }

  #slot(identity: string) {
    let slot = this.#ids.get(identity);
    if (!slot) {
      let resolve!: (id: string) => void;
      let reject!: (e: unknown) => void;
      const promise = new Promise<string>((res, rej) => {
        resolve = res;
        reject = rej;
      });
      promise.catch(() => {});
      slot = { promise, resolve, reject };
      this.#ids.set(identity, slot);
    }
    return slot;
  }

  /** An entry's account is known (the plan found it, or the run made it). */
  learned(identity: string, accountId: string): void {
    this.#slot(identity).resolve(accountId);
  }

  /** An entry's account could not be made: whatever waits for it fails too. */
  failed(identity: string, error: unknown): void {
    this.#slot(identity).reject(error);
  }

  /** What provisioning `account` needs. */
  async contextOf(account: ResolvedAccount, tag: string): Promise<ProvisionContext> {
    const admin = await this.#access.admin(account.organization!.id);
    return {
      admin,
      record: await this.#records.of(admin),
      tag,
      accountIdOf: (key) => this.#slot(identityOf({ job: account.job, key })).promise,
      delay: this.#delay,
      ...(this.#signal ? { signal: this.#signal } : {}),
    };
  }

  /** Waits between two looks at the organisation's asynchronous work (the run's clock). */
  get delay(): ProvisionContext['delay'] {
    return this.#delay;
  }

  admin(organizationId: string) {
    return this.#access.admin(organizationId);
  }
}
