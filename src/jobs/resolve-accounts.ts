import { makeSecret } from '../secret.js';
import { placeOf, type JobContext } from './job-context.js';
import type { ResolvedAccount, ResolvedTemplate } from './model.js';
import type { RawJobFile } from './raw-job.js';
import { substituteReferences } from './references.js';
import { fieldName } from './schema-check.js';
import { emailProblem, identityLengthProblem, KEY } from './value-rules.js';
import { resolveAccountContents } from './resolve-account-contents.js';
import type { AccountEntryKind } from './account-entries/account-entry-kind.js';
import { accountEntryKinds } from './account-entries/account-entry-kinds.js';
import { resolveAccountOrganization } from './resolve-organization.js';
import { didYouMean } from '../errors/did-you-mean.js';

/**
 * The accounts of a job file: keys unique, what creation needs present
 * (service-api.md 4.3), `${env.*}` substituted; the password becomes a
 * Secret the moment it is read. An entry's `templates:` must name templates
 * of the same file (SR_TEMPLATE_KEY_UNKNOWN).
 */
export function resolveAccounts(
  job: RawJobFile,
  ctx: JobContext,
  /** The job file's templates, resolved: an entry's `templates:` names them by key. */
  templates: readonly ResolvedTemplate[] = [],
  /** What an account entry keeps inside the account, in the catalogue's order. */
  kinds: readonly AccountEntryKind[] = accountEntryKinds,
): ResolvedAccount[] {
  const sub = (value: string): string => substituteReferences(value, (_kind, name) => ctx.env(name) ?? '');
  const keys = new Set<string>();
  const accounts: ResolvedAccount[] = [];
  for (const [i, raw] of (job.accounts ?? []).entries()) {
    const base = ['accounts', i];
    const before = ctx.sink.errorCount;
    const say = (
      code: Parameters<JobContext['sink']['add']>[0],
      message: string,
      path: Array<string | number>,
      at: 'value' | 'key' = 'value',
    ) => ctx.sink.add(code, message, placeOf(ctx, [...base, ...path], at), { field: fieldName([...base, ...path]) });
    const key = sub(raw.key);
    // The key names the account's folder in the output folder: what run would refuse is refused here.
    if (!KEY.test(key) || key.length > 200)
      say(
        'SR_SCHEMA_VALUE',
        `account key ${JSON.stringify(key)} must be letters, digits, ".", "_", "@", "+" or "-", starting with a letter or digit (it names the account's folder in the output folder)`,
        ['key'],
      );
    else if (keys.has(key))
      say('SR_DUPLICATE_ACCOUNT_KEY', `account key ${key} is used twice in job ${job.job}`, ['key']);
    else {
      const identityProblem = identityLengthProblem(job.job, key, '#account');
      if (identityProblem) say('SR_IDENTITY_TOO_LONG', identityProblem, ['key']);
    }
    keys.add(key);
    const state = raw.state ?? 'present';
    // Provisioned through the organisation: its administrator instead of an initial user (resolve-organization.ts).
    if (state === 'present' && raw.organizationId === undefined) {
      const missing = [
        raw.initialUser ? undefined : 'initialUser',
        raw.planInformation ? undefined : 'planInformation',
      ].filter(Boolean);
      if (missing.length > 0)
        say(
          'SR_ACCOUNT_FIELD_MISSING',
          `account ${key} (state: present) needs ${missing.join(' and ')} to be created`,
          ['key'],
          'key',
        );
    }
    if (raw.initialUser) {
      const problem = emailProblem(sub(raw.initialUser.email));
      if (problem) say('SR_EMAIL_INVALID', problem, ['initialUser', 'email']);
    }
    // What the entry keeps inside the account (checked here, offline), each kind its own field.
    const contents = resolveAccountContents(raw, base, ctx, sub, kinds);
    const organization = resolveAccountOrganization(raw, base, ctx, sub, job.accounts ?? []);
    // Its templates: keys of this file's `templates:` (a template declared `state: absent` is deleted from it).
    const templateKeys = (job.templates ?? []).map((t) => t.key);
    raw.templates?.forEach((templateKey, t) => {
      if (templateKeys.includes(templateKey)) return;
      const near = didYouMean(templateKey, templateKeys);
      say(
        'SR_TEMPLATE_KEY_UNKNOWN',
        `account ${key} installs template ${JSON.stringify(templateKey)}, which no template of this job file has as its key${near ? ` (did you mean "${near}"?)` : ''}; the templates here are: ${templateKeys.join(', ') || '(none)'}`,
        ['templates', t],
      );
    });
    if (ctx.sink.errorCount > before) continue;

    const account: ResolvedAccount = {
      job: job.job,
      key,
      source: { file: ctx.file, ...ctx.locator.locate(base) },
      state,
      accountName: sub(raw.accountName),
    };
    if (raw.accountId !== undefined) account.accountId = sub(raw.accountId);
    if (raw.userId !== undefined) account.userId = sub(raw.userId);
    if (raw.initialUser) {
      const { password, ...rest } = raw.initialUser;
      const user: NonNullable<ResolvedAccount['initialUser']> = {
        email: sub(rest.email),
        password: makeSecret(sub(password)),
      };
      for (const field of ['userName', 'firstName', 'lastName', 'middleName', 'suffixName', 'title'] as const) {
        const value = rest[field];
        if (value !== undefined) user[field] = sub(value);
      }
      account.initialUser = user;
    }
    if (raw.planInformation) account.planInformation = { planId: sub(raw.planInformation.planId) };
    if (raw.addressInformation) {
      account.addressInformation = Object.fromEntries(
        Object.entries(raw.addressInformation).map(([k, v]) => [k, sub(v)]),
      );
    }
    // The job's own definitions (resolved first), in the order the entry lists them.
    if (raw.templates && raw.templates.length > 0)
      account.templates = raw.templates.flatMap((k) => templates.filter((t) => t.key === k));
    accounts.push({ ...account, ...contents, ...organization });
  }
  return accounts;
}
