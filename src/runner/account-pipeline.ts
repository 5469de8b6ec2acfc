import type { ResolvedAccount, Secret } from '../jobs/model.js';
import type { EsignatureClient } from '../client/esignature-client.js';
import { ClientHttpError } from '../client/client-errors.js';
import { serviceErrorMeans } from '../client/service-error-classes.js';
import type { NewAccountDefinition } from '../client/wire-types.js';
import { SignrunError } from '../errors/signrun-error.js';
import type { FileRecord, OutputFolder } from '../output/output-folder.js';
import { itemFolder, readRecord, type AccountRecord } from '../output/records.js';
import { identityOf } from './identity.js';
import { itemErrorOf } from './envelope-pipeline.js';
import type { AccountResult } from './run-summary.js';

/** What the account pipeline needs from the run. */
export interface AccountContext {
  /** Logged in as the main (distributor) account's user. */
  client: EsignatureClient;
  out: OutputFolder;
  rootUrl: string;
  now: () => Date;
  /** Distributor credentials for account creation (service-api.md 4.3). */
  distributor?: { code: string; password: Secret };
  /** The main account's integrator key: a subsidiary's user logs in with it (service-api.md 5). */
  integratorKey?: string;
  usageOf(tag: string): { calls: number; retries: number };
}

/**
 * Brings one subsidiary account to its declared state (service-api.md 4.12
 * sequence 3). `present`: read it when its ids are known, create it when
 * missing — a new account awaits activation by its user, which is reported,
 * not failed. `absent`: log in as the account's own user (username = userId,
 * its password, the main integrator key) and delete it. Never throws.
 */
export async function runAccount(account: ResolvedAccount, ctx: AccountContext): Promise<AccountResult> {
  const tag = identityOf(account);
  const startedAt = ctx.now();
  const files: FileRecord[] = [];
  const result: AccountResult = {
    job: account.job,
    key: account.key,
    source: account.source,
    state: account.state,
    outcome: 'failed',
    files,
    apiCalls: 0,
    retries: 0,
  };
  const folder = itemFolder(account.job, account.key);
  let action = account.state === 'present' ? 'create' : 'delete';
  try {
    ctx.out.join(account.job, account.key);
    const earlier = await readRecord<AccountRecord>(ctx.out.root, `${folder}/account.json`);
    const known = earlier && earlier.state !== 'deleted' && earlier.rootUrl === ctx.rootUrl ? earlier : undefined;
    const accountId = account.accountId ?? known?.accountId;
    const userId = account.userId ?? known?.userId;
    if (accountId) result.accountId = accountId;
    if (userId) result.userId = userId;

    if (account.state === 'present') {
      if (accountId) {
        action = 'read';
        if (await accountExists(ctx.client, accountId, tag)) {
          result.outcome = 'up-to-date';
          if (known?.state === 'awaiting-activation') result.awaitingActivation = true;
          return result;
        }
        action = 'create';
      }
      const created = await createAccount(account, ctx, tag);
      result.accountId = created.accountId;
      result.userId = created.userId;
      const record: AccountRecord = {
        job: account.job,
        key: account.key,
        accountName: account.accountName,
        accountId: created.accountId,
        userId: created.userId,
        rootUrl: ctx.rootUrl,
        state: 'awaiting-activation',
        createdAt: ctx.now().toISOString(),
      };
      files.push(await ctx.out.writeJson(`${folder}/account.json`, record));
      result.outcome = 'created';
      result.awaitingActivation = true;
      return result;
    }

    // state: absent
    if (!accountId) {
      result.outcome = 'already-absent';
      return result;
    }
    if (!userId) {
      throw new SignrunError(
        'SR_ACCOUNT_IDS_UNKNOWN',
        `${tag}: to delete account ${accountId} signrun logs in as its user, but the userId is not known`,
        {
          location: account.source,
        },
      );
    }
    // The configured login (JWT grant, or the legacy header) acting as that account's user.
    const asUser = ctx.client.asUser(
      { userId, accountId, ...(account.initialUser?.password ? { password: account.initialUser.password } : {}) },
      ctx.integratorKey,
    );
    const session = await asUser.login({ tag });
    await asUser.deleteAccount(session.accountId === accountId ? session.accountId : accountId, { tag });
    if (known) {
      files.push(
        await ctx.out.writeJson(`${folder}/account.json`, {
          ...known,
          state: 'deleted',
          deletedAt: ctx.now().toISOString(),
        } satisfies AccountRecord),
      );
    }
    result.outcome = 'deleted';
    return result;
  } catch (error) {
    result.outcome = 'failed';
    result.error = itemErrorOf(error, action);
    return result;
  } finally {
    const usage = ctx.usageOf(tag);
    result.apiCalls = usage.calls;
    result.retries = usage.retries;
    result.startedAt = startedAt.toISOString();
    result.durationMs = ctx.now().getTime() - startedAt.getTime();
  }
}

/** Whether the service still has this account (GET …/accounts/{accountId}; 404 or a missing-account errorCode: no). Read-only; `plan` uses it too. */
export async function accountExists(client: EsignatureClient, accountId: string, tag: string): Promise<boolean> {
  try {
    await client.getAccount(accountId, { tag });
    return true;
  } catch (error) {
    if (error instanceof ClientHttpError && (error.status === 404 || serviceErrorMeans(error, 'account-missing')))
      return false;
    throw error;
  }
}

async function createAccount(account: ResolvedAccount, ctx: AccountContext, tag: string) {
  if (!ctx.distributor) {
    throw new SignrunError(
      'SR_DISTRIBUTOR_MISSING',
      `${tag}: creating account "${account.accountName}" needs a distributor code and password`,
      {
        location: account.source,
      },
    );
  }
  const user = account.initialUser;
  if (!user) {
    throw new SignrunError(
      'SR_ACCOUNT_FAILED',
      `${tag}: creating account "${account.accountName}" needs an initialUser`,
      { location: account.source },
    );
  }
  const address = account.addressInformation ?? {};
  // The payload shape of service-api.md 4.3 (Swagger newAccountDefinition):
  // empty strings for unused address fields, nulls for unused objects.
  const definition: NewAccountDefinition = {
    accountName: account.accountName,
    accountSettings: [],
    addressInformation: {
      address1: address.address1 ?? '',
      address2: address.address2 ?? '',
      city: address.city ?? '',
      country: address.country ?? '',
      fax: address.fax ?? '',
      phone: address.phone ?? '',
      postalCode: address.postalCode ?? '',
      state: address.state ?? '',
    },
    creditCardInformation: null,
    distributorCode: ctx.distributor.code,
    distributorPassword: ctx.distributor.password.reveal(),
    initialUser: {
      email: user.email,
      firstName: user.firstName ?? '',
      lastName: user.lastName ?? '',
      middleName: user.middleName ?? '',
      password: user.password.reveal(),
      suffixName: user.suffixName ?? '',
      title: user.title ?? '',
      userName: user.userName ?? user.email,
      userSettings: [],
    },
    planInformation: { planId: account.planInformation?.planId ?? '' },
    referralInformation: null,
    socialAccountInformation: null,
  };
  return ctx.client.createAccount(definition, { tag });
}
