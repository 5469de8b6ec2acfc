import { connectEntry } from '../../../jobs/account-entries/connect.js';
import { createHash } from 'node:crypto';
import type { ResolvedConnect } from '../../../jobs/model.js';
import { AccountBrands, type ConnectConfigurationWire } from '../../../client/account-brands.js';
import type { AccountItemProgress } from '../../../state/journal-progress.js';
import { brands } from './brands.js';
import { dropDuplicates } from './drop-duplicates.js';
import { digestOf, itemDecision, itemIdentity, lower, same, settledOutcome, writeCalls } from '../item-decision.js';
import type { AccountResourceKind, ResourceImport } from '../resource-kind.js';
import type { RawConnect } from '../../../jobs/raw-job.js';

// An account's Connect configurations (DocuSign's
// #/definitions/connectCustomConfiguration): found by name, compared field by
// field as DocuSign keeps them; the listener's password, which the account
// never answers, by the journal's digest. Converged after the brands.

declare module '../../plan-types.js' {
  interface FoundPeople {
    /** The account's Connect configurations, read only when the entry keeps some. */
    connect?: ConnectConfigurationWire[];
  }
}

/** The Connect configuration of a name that counts: the earliest (DocuSign's connectIds grow). */
export function findConnect(
  configs: readonly ConnectConfigurationWire[] | undefined,
  name: string,
): ConnectConfigurationWire | undefined {
  return (configs ?? [])
    .filter((c) => same(c.name, name) && c.connectId)
    .sort(
      (a, b) => Number(a.connectId) - Number(b.connectId) || String(a.connectId).localeCompare(String(b.connectId)),
    )[0];
}

/** A Connect field compared as DocuSign keeps it: flags lower case, lists as sets, eventData by content. */
function connectValue(value: unknown): string {
  if (Array.isArray(value)) return JSON.stringify(value.map((v) => lower(String(v))).sort());
  if (value !== null && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => [k, Array.isArray(v) ? v.map((x) => lower(String(x))).sort() : lower(String(v))] as const)
      .sort(([a], [b]) => a.localeCompare(b));
    return JSON.stringify(entries);
  }
  if (typeof value !== 'string' && typeof value !== 'boolean' && typeof value !== 'number') return '';
  const text = String(value);
  return /^(true|false)$/i.test(text) ? text.toLowerCase() : text;
}

/**
 * Digest of a Connect entry. The password enters only as its own sha256:
 * the journal tells a changed password from an unchanged one (the account
 * never answers it) without keeping anything of it.
 */
export const connectDigest = (c: ResolvedConnect) =>
  digestOf({
    n: lower(c.name),
    f: Object.entries(c.fields)
      .map(([k, v]) => [k, connectValue(v)])
      .sort(([a], [b]) => String(a).localeCompare(String(b))),
    p: c.password ? createHash('sha256').update(c.password.reveal()).digest('hex') : null,
    s: c.state,
  });

/**
 * What differs, account → file, for a Connect configuration that is there.
 * The password is never answered by the service: it counts as changed when
 * the file's digest differs from the one signrun journalled while every
 * field the account shows is the file's (the password is then what changed).
 */
export function connectDifferences(
  config: ResolvedConnect,
  there: ConnectConfigurationWire,
  written: AccountItemProgress | undefined,
): string[] {
  const differences: string[] = [];
  for (const [field, value] of Object.entries(config.fields)) {
    if (connectValue(there[field]) === connectValue(value)) continue;
    const was = there[field] === undefined ? '(not set)' : JSON.stringify(there[field]);
    differences.push(`${field}: ${was} → ${JSON.stringify(value)}`);
  }
  if (
    differences.length === 0 &&
    config.password &&
    written?.present === true &&
    written.digest !== connectDigest(config)
  )
    differences.push('password: changed in the environment since signrun wrote it (the account never shows it)');
  return differences;
}

/** The configuration as DocuSign's connectCustomConfiguration; the password revealed here, on its way to the wire only. */
function connectBody(config: ResolvedConnect, name: string): Record<string, unknown> {
  return {
    ...config.fields,
    name,
    ...(config.password ? { password: config.password.reveal() } : {}),
  };
}

const flagPattern = /^(true|false)$/i;
/** Connect fields the job schema has that are flags (boolean or DocuSign's string), in the schema's order. */
const connectFlags = [
  'allowEnvelopePublish',
  'allUsers',
  'includeHMAC',
  'requireMutualTls',
  'requiresAcknowledgement',
  'enableLog',
  'includeDocuments',
  'includeCertificateOfCompletion',
  'includeDocumentFields',
  'includeEnvelopeVoidReason',
  'includeTimeZoneInformation',
] as const;
const connectLists = ['userIds', 'events', 'envelopeEvents', 'recipientEvents'] as const;
const eventDataFields = new Set(['version', 'format', 'includeData']);

/** A configuration's eventData as a job file holds it; `undefined`: it holds what a file has no place for. */
function writtenEventData(eventData: unknown): Record<string, unknown> | null | undefined {
  if (eventData === null || typeof eventData !== 'object' || Array.isArray(eventData)) return null;
  const data = eventData as Record<string, unknown>;
  const fits =
    Object.keys(data).every((k) => eventDataFields.has(k)) &&
    (data['version'] === undefined || typeof data['version'] === 'string') &&
    (data['format'] === undefined || typeof data['format'] === 'string') &&
    (data['includeData'] === undefined ||
      (Array.isArray(data['includeData']) && data['includeData'].every((v) => typeof v === 'string')));
  if (!fits) return undefined;
  return Object.keys(data).length > 0 ? data : null;
}

/**
 * `import account`: every configuration with a name and a urlToPublishTo,
 * the fields the job schema has as the account answers them; the listener's
 * password (never answered) as a `${env.SIGNRUN_CONNECT_PASSWORD_<NAME>}`.
 */
const connectImport: ResourceImport = {
  field: 'connect',
  async read(found, { people, tag }) {
    found.connect = await new AccountBrands(people.account).listConnect({ tag });
  },
  entries(found, ctx) {
    const connect: RawConnect[] = [];
    for (const config of found.connect ?? []) {
      const name = typeof config.name === 'string' ? config.name : undefined;
      const url = config['urlToPublishTo'];
      if (!name || !config.connectId) continue;
      if (findConnect(found.connect, name) !== config) {
        ctx.leaveOut(`Connect configuration "${name}" (${config.connectId}): a second one of that name`);
        continue;
      }
      if (typeof url !== 'string' || url === '') {
        ctx.leaveOut(`Connect configuration "${name}": it has no urlToPublishTo, which an entry needs`);
        continue;
      }
      const written: RawConnect = { name, urlToPublishTo: url };
      for (const flag of connectFlags) {
        const value = config[flag];
        if (typeof value === 'boolean') written[flag] = value;
        else if (typeof value === 'string' && flagPattern.test(value)) written[flag] = value.toLowerCase() === 'true';
      }
      for (const list of connectLists) {
        const value = config[list];
        if (Array.isArray(value) && value.length > 0) {
          if (value.every((v) => typeof v === 'string')) written[list] = value;
          else ctx.leaveOut(`Connect configuration "${name}": ${list} (not a list of names; left as it is)`);
        }
      }
      const eventData = writtenEventData(config['eventData']);
      if (eventData) written.eventData = eventData;
      else if (eventData === undefined)
        ctx.leaveOut(`Connect configuration "${name}": eventData (a field a job file has no place for; left as it is)`);
      const userName = config['userName'];
      if (typeof userName === 'string' && userName !== '') {
        written.userName = userName;
        written.password = ctx.variable(
          'SIGNRUN_CONNECT_PASSWORD',
          name,
          `the password of the listener of Connect configuration "${name}" (user ${userName}); DocuSign never shows it`,
          ['connect', connect.length, 'password'],
        );
      }
      connect.push(written);
    }
    return connect;
  },
};

export const connectConfigurations = {
  kind: 'connect' as const,
  after: [brands.kind],
  entry: connectEntry,
  words: { one: 'Connect configuration', summary: 'Connect configurations' },
  count: (account) => account.connect?.length ?? 0,

  async read(account, found, { people, tag }) {
    if ((account.connect?.length ?? 0) > 0)
      found.connect = await new AccountBrands(people.account).listConnect({ tag });
  },
  readCalls: (_account, found) => (found.connect ? 1 : 0),

  decide(account, found, journal) {
    return (account.connect ?? []).map((config) => {
      const there = findConnect(found.connect, config.name);
      const written = journal?.get(itemIdentity(account, 'connect', config.name));
      return itemDecision(
        account,
        {
          kind: 'connect',
          name: config.name,
          digest: connectDigest(config),
          id: there?.connectId,
          differences: there ? connectDifferences(config, there, written) : [],
          state: config.state,
        },
        journal,
      );
    });
  },

  calls: (plans) => writeCalls(plans),

  /** One create per configuration, then one listing: the earliest of a name stays, the others are deleted. */
  async converge(account, plans, ctx) {
    const opts = { tag: ctx.tag };
    const client = new AccountBrands(ctx.people.account);
    const connectOf = (name: string) => (account.connect ?? []).find((c) => same(c.name, name))!;
    const creates = plans.filter((p) => p.action === 'create');
    const createErrors = new Map<string, unknown>();
    for (const plan of creates) {
      const config = connectOf(plan.name);
      try {
        await client.createConnect(connectBody(config, config.name), opts);
      } catch (error) {
        createErrors.set(plan.identity, error);
      }
    }
    if (creates.length > 0) {
      const listed = await client.listConnect(opts);
      for (const plan of creates) {
        const winner = findConnect(listed, plan.name);
        if (!winner?.connectId) {
          ctx.failed(
            plan,
            createErrors.get(plan.identity) ??
              ctx.refused(`Connect configuration "${plan.name}"`, 'not listed after its creation'),
          );
          continue;
        }
        try {
          const losers = listed.filter((c) => same(c.name, plan.name) && c !== winner).map((c) => c.connectId!);
          await dropDuplicates(
            losers,
            (id) => client.deleteConnect(id, opts),
            async () => (await client.listConnect(opts)).map((c) => c.connectId ?? ''),
          );
          await ctx.done(plan, 'created', winner.connectId);
        } catch (error) {
          ctx.failed(plan, error);
        }
      }
    }
    for (const plan of plans.filter((p) => p.action !== 'create')) {
      try {
        if (plan.action === 'update') {
          const config = connectOf(plan.name);
          const there = findConnect(ctx.found.connect, plan.name);
          await client.updateConnect(plan.id!, connectBody(config, there?.name ?? config.name), opts);
          await ctx.done(plan, 'updated', plan.id);
        } else if (plan.action === 'delete') {
          await client.deleteConnect(plan.id!, opts);
          await ctx.done(plan, 'deleted', plan.id);
        } else await ctx.done(plan, settledOutcome(plan.action), plan.id);
      } catch (error) {
        ctx.failed(plan, error);
      }
    }
  },

  import: connectImport,
} satisfies AccountResourceKind;
