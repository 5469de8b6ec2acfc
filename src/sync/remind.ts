import type { ResolvedJob } from '../jobs/model.js';
import { EsignatureClient } from '../client/esignature-client.js';
import type { Auth } from '../client/auth.js';
import { readRecord, type EnvelopeRecord } from '../output/records.js';
import { itemFile, itemFolder } from '../output/output-paths.js';
import { identityOf } from '../runner/identity.js';
import { CallBudget, type CallBudgetReport } from '../runner/call-budget.js';
import { holdState } from '../state/hold-state.js';
import { readJournal } from '../state/journal.js';
import { journalProgress, type JournalProgress } from '../state/journal-progress.js';
import { isSettledEnvelope } from '../envelope/statuses.js';
import { isInTurn } from '../envelope/routing-turn.js';
import { withFacts } from '../state/status-facts.js';

/** Options of {@link remind}. */
export interface RemindOptions {
  jobs: ResolvedJob[];
  target: { rootUrl: string; auth: Auth };
  outDir: string;
  stateDir: string;
  /** Only these envelope keys (`key` or `job/key`); default all. */
  keys?: string[];
  /** Hourly call budget (`--max-calls-per-hour`); the service's `x-ratelimit-remaining` is respected too. */
  maxCallsPerHour?: number;
  /** An envelope reminded less than this long ago is left (a second remind the same day would spam). Default 24 h. */
  minIntervalMs?: number;
  /** Remind even those (`--force`). */
  force?: boolean;
  /** The clock the interval is measured with. Default `Date.now`. */
  now?: () => number;
}

/** Default {@link RemindOptions.minIntervalMs}: a day. */
export const defaultRemindIntervalMs = 24 * 60 * 60 * 1000;

/** What `remind` did. */
export interface RemindResult {
  /** `<job>/<key>` → the recipients reminded. */
  reminded: Array<{ id: string; envelopeId: string; recipients: string[] }>;
  /** Envelopes left for lack of calls. */
  notReminded: string[];
  /** Envelopes left because they were reminded less than the interval ago: when. */
  recentlyReminded: Array<{ id: string; at: string }>;
  callBudget: CallBudgetReport;
}

/**
 * `signrun remind`: DocuSign's resend (PUT …/recipients?resend_envelope=true)
 * for every envelope of the jobs that is not settled, to its recipients
 * whose turn has come and who have not acted (as the last sync recorded;
 * when no sync has, those of the first routing order still to act:
 * src/envelope/routing-turn.ts), embedded signers left out (they sign in the
 * client's own application). A recipient whose routing order has not come is
 * never named: DocuSign would send them nothing. One call per envelope,
 * within the call budget: when it is spent, the rest is listed and left.
 * Each reminder is journalled with its recipients, and a recipient reminded
 * less than `minIntervalMs` ago is left unless `force` (an envelope all of
 * whose due recipients were is listed as recently reminded): running the
 * command again after a spent budget reminds only the rest.
 */
export async function remind(options: RemindOptions): Promise<RemindResult> {
  const now = options.now ?? Date.now;
  const interval = options.minIntervalMs ?? defaultRemindIntervalMs;
  const wanted = options.keys && options.keys.length > 0 ? new Set(options.keys) : undefined;
  // envelope.json of each envelope, read once: `due` runs before the state is held and again after.
  const records = new Map<string, Promise<EnvelopeRecord | undefined>>();
  const recordOf = (job: string, key: string) => {
    const folder = itemFolder(job, key);
    let record = records.get(folder);
    if (!record)
      records.set(folder, (record = readRecord<EnvelopeRecord>(options.outDir, itemFile(folder, 'envelope'))));
    return record;
  };
  /** The envelopes due a reminder, and those reminded less than the interval ago, as `progress` tells. */
  const due = async (progress: JournalProgress) => {
    const todo: Array<{ id: string; envelopeId: string; recipients: string[] }> = [];
    const recent: Array<{ id: string; at: string }> = [];
    for (const job of options.jobs) {
      for (const envelope of job.envelopes) {
        const id = identityOf(envelope);
        if (wanted && !wanted.has(envelope.key) && !wanted.has(id)) continue;
        const p = progress.envelopes.get(id);
        let record = await recordOf(envelope.job, envelope.key);
        const envelopeId = (p?.created?.envelopeId ?? record?.envelopeId)?.toLowerCase();
        if (!envelopeId || !record) continue;
        if (p?.status?.envelopeId === envelopeId) record = withFacts(record, p.status.facts);
        if (isSettledEnvelope(record.status) || p?.voided?.envelopeId === envelopeId) continue;
        // Only those whose turn has come (as the last sync recorded, else as the routing implies):
        // DocuSign notifies nobody else, so a reminder to them would be reported and journalled, never sent.
        const all = record.recipients;
        const inTurn = all
          .filter((r) => r.clientUserId === undefined && isInTurn(r, all, record.status))
          .map((r) => r.recipientId);
        if (inTurn.length === 0) continue;
        // Each recipient waits the interval after their own last reminder (one whose turn came since is due at once).
        const remindedAt = p?.reminded?.envelopeId === envelopeId ? p.reminded.recipients : undefined;
        const lastOf = (recipientId: string) => remindedAt?.get(recipientId);
        const recently = (recipientId: string) => {
          const last = lastOf(recipientId);
          return last !== undefined && !options.force && now() - Date.parse(last) < interval;
        };
        const recipients = inTurn.filter((r) => !recently(r));
        if (recipients.length > 0) todo.push({ id, envelopeId, recipients });
        else recent.push({ id, at: inTurn.map((r) => lastOf(r)!).sort()[0]! });
      }
    }
    return { todo, recent };
  };

  const budget = new CallBudget(options.maxCallsPerHour, new Date());
  const result: RemindResult = { reminded: [], notReminded: [], recentlyReminded: [], callBudget: budget.report() };
  // Read first without taking the state folder: when nothing is due, nothing is touched.
  const seen = await due(journalProgress((await readJournal(options.stateDir)).records));
  result.recentlyReminded = seen.recent;
  if (seen.todo.length === 0) return result;

  // Then held as run and sync hold it: each reminder is journalled, and no run or second remind races this one.
  const state = await holdState(options.stateDir, {
    command: 'signrun remind',
    rootUrl: options.target.rootUrl,
    warn: () => {},
  });
  const client = EsignatureClient.create({
    rootUrl: options.target.rootUrl,
    auth: options.target.auth,
    onEvent: (event) => {
      if (event.type === 'request') budget.observe(event.rateLimit);
    },
  });
  try {
    const { todo, recent } = await due(state.progress);
    result.recentlyReminded = recent;
    if (todo.length === 0) return result;
    const account = await client.login({ tag: 'login' });
    for (const item of todo) {
      if (!budget.canStart(1, 0)) {
        result.notReminded.push(item.id);
        continue;
      }
      await account.resendToRecipients(item.envelopeId, item.recipients, { tag: item.id });
      await state.journal.append({
        kind: 'envelope',
        id: item.id,
        step: 'reminded',
        envelopeId: item.envelopeId,
        recipients: item.recipients,
      });
      result.reminded.push(item);
    }
    result.callBudget = budget.report();
    return result;
  } finally {
    client.close();
    await state.close();
  }
}
