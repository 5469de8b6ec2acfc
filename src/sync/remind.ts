import type { ResolvedJob } from '../jobs/model.js';
import { EsignatureClient } from '../client/esignature-client.js';
import type { Auth } from '../client/auth.js';
import { itemFolder, readRecord, type EnvelopeRecord } from '../output/records.js';
import { identityOf } from '../runner/identity.js';
import { CallBudget, type CallBudgetReport } from '../runner/call-budget.js';
import { readJournal } from '../state/journal.js';
import { journalProgress } from '../state/journal-progress.js';
import { isSettled, withFacts } from '../state/status-facts.js';

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
}

/** What `remind` did. */
export interface RemindResult {
  /** `<job>/<key>` → the recipients reminded. */
  reminded: Array<{ id: string; envelopeId: string; recipients: string[] }>;
  /** Envelopes left for lack of calls. */
  notReminded: string[];
  callBudget: CallBudgetReport;
}

/**
 * `signrun remind`: DocuSign's resend (PUT …/recipients?resend_envelope=true)
 * for every envelope of the jobs that is not settled, to its recipients who
 * have not signed (as the last sync recorded; all of them when no sync has),
 * embedded signers left out (they sign in the client's own application).
 * One call per envelope, within the call budget: when it is spent, the rest
 * is listed and left.
 */
export async function remind(options: RemindOptions): Promise<RemindResult> {
  const progress = journalProgress((await readJournal(options.stateDir)).records);
  const budget = new CallBudget(options.maxCallsPerHour, new Date());
  const client = EsignatureClient.create({
    rootUrl: options.target.rootUrl,
    auth: options.target.auth,
    onEvent: (event) => {
      if (event.type === 'request') budget.observe(event.rateLimit);
    },
  });
  const result: RemindResult = { reminded: [], notReminded: [], callBudget: budget.report() };
  try {
    const wanted = options.keys && options.keys.length > 0 ? new Set(options.keys) : undefined;
    const todo: Array<{ id: string; envelopeId: string; recipients: string[] }> = [];
    for (const job of options.jobs) {
      for (const envelope of job.envelopes) {
        const id = identityOf(envelope);
        if (wanted && !wanted.has(envelope.key) && !wanted.has(id)) continue;
        const p = progress.envelopes.get(id);
        let record = await readRecord<EnvelopeRecord>(
          options.outDir,
          `${itemFolder(envelope.job, envelope.key)}/envelope.json`,
        );
        const envelopeId = (p?.created?.envelopeId ?? record?.envelopeId)?.toLowerCase();
        if (!envelopeId || !record) continue;
        if (p?.status?.envelopeId === envelopeId) record = withFacts(record, p.status.facts);
        if (isSettled(record.status) || p?.voided?.envelopeId === envelopeId) continue;
        const recipients = record.recipients
          .filter((r) => r.clientUserId === undefined)
          .filter((r) => r.status === undefined || r.status === 'sent' || r.status === 'delivered')
          .map((r) => r.recipientId);
        if (recipients.length > 0) todo.push({ id, envelopeId, recipients });
      }
    }
    if (todo.length === 0) return result;
    const account = await client.login({ tag: 'login' });
    for (const item of todo) {
      if (!budget.canStart(1, 0)) {
        result.notReminded.push(item.id);
        continue;
      }
      await account.resendToRecipients(item.envelopeId, item.recipients, { tag: item.id });
      result.reminded.push(item);
    }
    result.callBudget = budget.report();
    return result;
  } finally {
    client.close();
  }
}
