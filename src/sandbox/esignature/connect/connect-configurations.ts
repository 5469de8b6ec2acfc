import type { SandboxDatabase } from '../../platform/db/open-database.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import type { ConnectEventType } from './connect-message.js';

/**
 * An account's Connect configuration (Swagger #/definitions/connectCustomConfiguration),
 * kept as the client sent it, strings as DocuSign answers them, plus its `connectId`.
 */
export type ConnectConfiguration = Record<string, unknown> & { connectId: string };

export type ConnectConfigurations = ReturnType<typeof createConnectConfigurations>;

const stores = new WeakMap<SandboxDatabase, ConnectConfigurations>();

/** The Connect configurations of a database (table `connect_configurations`, db/schema.ts). */
export function connectConfigurations(db: SandboxDatabase): ConnectConfigurations {
  let store = stores.get(db);
  if (!store) {
    store = createConnectConfigurations(db);
    stores.set(db, store);
  }
  return store;
}

function createConnectConfigurations(db: SandboxDatabase) {
  const insert = db.prepare(
    'INSERT INTO connect_configurations (account_id, config_json, created_at) VALUES (?, ?, ?)',
  );
  const update = db.prepare('UPDATE connect_configurations SET config_json = ? WHERE id = ? AND account_id = ?');
  const remove = db.prepare('DELETE FROM connect_configurations WHERE id = ? AND account_id = ?');
  const one = db.prepare<[number, string], { id: number; config_json: string }>(
    'SELECT id, config_json FROM connect_configurations WHERE id = ? AND account_id = ?',
  );
  const all = db.prepare<[string], { id: number; config_json: string }>(
    'SELECT id, config_json FROM connect_configurations WHERE account_id = ? ORDER BY id',
  );
  const toConfig = (row: { id: number; config_json: string }): ConnectConfiguration => ({
    ...(JSON.parse(row.config_json) as Record<string, unknown>),
    connectId: String(row.id),
  });
  const idOf = (connectId: string) => (/^[1-9][0-9]{0,15}$/.test(connectId) ? Number(connectId) : -1);
  return {
    list(accountId: string): ConnectConfiguration[] {
      return all.all(accountId).map(toConfig);
    },
    get(accountId: string, connectId: string): ConnectConfiguration | undefined {
      const row = one.get(idOf(connectId), accountId);
      return row ? toConfig(row) : undefined;
    },
    create(accountId: string, config: Record<string, unknown>, now: number): ConnectConfiguration {
      const info = insert.run(accountId, JSON.stringify(config), now);
      return { ...config, connectId: String(info.lastInsertRowid) };
    },
    update(accountId: string, connectId: string, config: Record<string, unknown>): ConnectConfiguration {
      update.run(JSON.stringify(config), idOf(connectId), accountId);
      return { ...config, connectId };
    },
    delete(accountId: string, connectId: string): boolean {
      return remove.run(idOf(connectId), accountId).changes > 0;
    },
  };
}

/** Fields whose values DocuSign answers as the strings "true"/"false". */
const flagFields = [
  'allowEnvelopePublish',
  'allUsers',
  'enableLog',
  'includeCertificateOfCompletion',
  'includeDocumentFields',
  'includeDocuments',
  'includeEnvelopeVoidReason',
  'includeHMAC',
  'includeSenderAccountasCustomField',
  'includeTimeZoneInformation',
  'requiresAcknowledgement',
  'signMessageWithX509Certificate',
  'useSoapInterface',
];

/**
 * Reads a configuration from a create or update body. `urlToPublishTo` and
 * `name` are required (DocuSign's console asks for both); booleans become
 * DocuSign's strings; `password` (basic authentication to the listener) is
 * not kept, so no secret is ever answered back or stored.
 */
export function readConnectConfiguration(body: unknown, current?: ConnectConfiguration): Record<string, unknown> {
  const given = lenientObject(body, 'connectCustomConfiguration');
  if (!given) throw apiErrors.invalidBody('Send a Connect configuration as JSON.');
  const { connectId: _id, password: _password, ...rest } = given;
  const config: Record<string, unknown> = { configurationType: 'custom', ...(current ?? {}), ...rest };
  delete config['connectId'];
  for (const field of flagFields) {
    if (config[field] === undefined) continue;
    const text = lenientString(config[field], field)!;
    if (!/^(true|false)$/i.test(text)) throw apiErrors.invalidBody(`'${field}' must be true or false.`);
    config[field] = text.toLowerCase();
  }
  const url = lenientString(config['urlToPublishTo'], 'urlToPublishTo');
  if (!url || !/^https?:\/\//i.test(url))
    throw apiErrors.invalidBody("'urlToPublishTo' is required: the http(s) address Connect posts to.");
  if (!lenientString(config['name'], 'name')) throw apiErrors.invalidBody("'name' is required.");
  for (const field of ['envelopeEvents', 'recipientEvents', 'events', 'userIds']) {
    const list = lenientArray(config[field], field);
    if (list !== undefined)
      config[field] = list.map((v, i) => {
        const text = lenientString(v, `${field}[${i}]`);
        if (text === undefined) throw apiErrors.invalidBody(`'${field}[${i}]' must be a string.`);
        return text;
      });
  }
  if (config['eventData'] !== undefined) lenientObject(config['eventData'], 'eventData');
  return config;
}

/**
 * Whether a configuration publishes an event of an envelope its sender sent:
 * publishing on (`allowEnvelopePublish` not "false"), the sender among its
 * users (`allUsers` "true", or in `userIds`), and the event chosen — Connect
 * 2.1's `events` (`envelope-sent`, `recipient-completed` …) when given, else
 * the legacy `envelopeEvents` / `recipientEvents` (`Sent`, `Completed` …).
 * A configuration that chooses no event publishes none.
 */
export function configurationWants(
  config: ConnectConfiguration,
  senderUserId: string,
  type: ConnectEventType,
): boolean {
  if (config['allowEnvelopePublish'] === 'false') return false;
  const userIds = (config['userIds'] as string[] | undefined)?.map((u) => u.toLowerCase()) ?? [];
  if (config['allUsers'] !== 'true' && !userIds.includes(senderUserId.toLowerCase())) return false;
  const events = config['events'] as string[] | undefined;
  if (events !== undefined && events.length > 0) return events.some((e) => e.toLowerCase() === type);
  const [scope, status] = type.split('-') as [string, string];
  const legacy = (scope === 'envelope' ? config['envelopeEvents'] : config['recipientEvents']) as string[] | undefined;
  return (legacy ?? []).some((e) => e.toLowerCase() === status);
}
