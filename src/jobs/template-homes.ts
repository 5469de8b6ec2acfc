import type { ResolvedAccount, ResolvedJob, TemplateLister } from './model.js';
import type { RawAccount } from './raw-job.js';

export type { TemplateLister } from './model.js';

// Where a job file's top-level templates are kept (docs/job-files.md,
// "Templates of the job file in an account"). The one place that decides it:
// validation (offline), plan and run ask it.
//
// - A template no account entry lists is kept in the configured account (the
//   one signrun logs in to, envelopes are sent from).
// - A template that entries list (`accounts[].templates`) is kept in those
//   accounts, and only there; the configured account is among them when an
//   entry that describes it (present, its accountId that account's) lists it.

/** A resolved account entry as a {@link TemplateLister}. */
export function listerOf(entry: ResolvedAccount): TemplateLister {
  return {
    key: entry.key,
    present: entry.state === 'present',
    accountId: entry.accountId,
    templates: (entry.templates ?? []).map((t) => t.key),
  };
}

/** The entries of a job file that decide where its templates are kept: all of the file's, even in a shard's job. */
export function templateListersOf(job: ResolvedJob): readonly TemplateLister[] {
  return job.templateListers ?? job.accounts.map(listerOf);
}

/** A raw account entry (before `${env.*}` is substituted) as a {@link TemplateLister}: what validation can tell offline. */
export function rawListerOf(entry: RawAccount): TemplateLister {
  return {
    key: entry.key,
    present: (entry.state ?? 'present') === 'present',
    accountId: entry.accountId,
    templates: entry.templates ?? [],
  };
}

/** Whether an entry describes the account of this id (the configured one): present, with that accountId (ignoring case). */
export function describesAccountId(entry: Pick<TemplateLister, 'present' | 'accountId'>, accountId: string): boolean {
  return entry.present && entry.accountId !== undefined && entry.accountId.toLowerCase() === accountId.toLowerCase();
}

/** The entries that list template `key`. */
export function listersOf(key: string, listers: readonly TemplateLister[]): TemplateLister[] {
  return listers.filter((l) => l.templates.includes(key));
}

/**
 * Whether the configured account keeps template `key`: no entry lists it,
 * or an entry that describes the configured account does.
 * `configuredAccountId` undefined: no entry describes the configured account
 * (a run's own in-process sandbox, or `plan` without a service).
 */
export function keptInConfiguredAccount(
  key: string,
  listers: readonly TemplateLister[],
  configuredAccountId: string | undefined,
): boolean {
  const listing = listersOf(key, listers);
  if (listing.length === 0) return true;
  return configuredAccountId !== undefined && listing.some((l) => describesAccountId(l, configuredAccountId));
}

/**
 * Whether some configured account could keep template `key`: not when it is
 * listed only by entries that can never describe the configured account
 * (without accountId, or `state: absent`). Decidable offline, before the
 * configured account's id is known.
 */
export function mayBeKeptInConfiguredAccount(key: string, listers: readonly TemplateLister[]): boolean {
  const listing = listersOf(key, listers);
  return listing.length === 0 || listing.some((l) => l.present && l.accountId !== undefined);
}

/**
 * Why an envelope cannot use template `key` (SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT),
 * and what to do. `sending`: the configured account's id, when known.
 */
export function notInSendingAccountMessage(
  envelopeKey: string,
  key: string,
  listers: readonly TemplateLister[],
  sending?: string,
): string {
  const listing = listersOf(key, listers).map((l) => l.key);
  const account = sending
    ? `the account envelopes are sent from (${sending}, the configured account)`
    : 'the account envelopes are sent from (the configured account)';
  const entry = sending ? `an entry with accountId: ${sending}` : 'an entry with its accountId and userId';
  return (
    `envelope ${envelopeKey} uses template ${key}, which is kept only in the accounts whose entries list it ` +
    `(${listing.join(', ')}), not in ${account}: list it on the sending account's entry too ` +
    `(${entry}, templates: [${key}]), or remove ${key} from the accounts' templates lists to keep it in the configured account`
  );
}
