import type { ResolvedJob } from '../jobs/model.js';
import { readRecord, type EnvelopeRecord, type SigningRecord } from '../output/records.js';
import { itemFile, itemFolder } from '../output/output-paths.js';
import { copyFacts, shownFactFields } from '../output/status-fields.js';
import type { RecipientOutcome } from '../runner/run-summary.js';
import { identityOf } from '../runner/identity.js';
import { readJournal } from '../state/journal.js';
import { journalProgress } from '../state/journal-progress.js';
import { recipientOutcomes } from './record-facts.js';
import { withFacts } from '../state/status-facts.js';

/** One envelope as `signrun status` shows it. */
export interface EnvelopeStatusLine {
  job: string;
  key: string;
  /** `not sent` when no run has sent it. */
  status: string;
  envelopeId?: string;
  statusAt?: string;
  voidedReason?: string;
  declinedReason?: string;
  /** When the last sync recorded it. */
  syncedAt?: string;
  recipients: StatusRecipient[];
}

/** A recipient as `signrun status` shows it: what the report says, and what signing.json holds for them. */
export type StatusRecipient = RecipientOutcome & {
  /** Until when the signing address in signing.json works (embedded signers whose turn has come). */
  signingAddressExpiresAt?: string;
  /** A stable link (`signrun links serve`) is assigned: it never expires. The link itself is not repeated here. */
  hasLink?: boolean;
};

/**
 * What the state says of each envelope of the jobs — the journal's latest
 * status (written by `sync`) over envelope.json — without any call to the
 * service.
 */
export async function statusFromState(
  jobs: ResolvedJob[],
  outDir: string,
  stateDir: string,
): Promise<EnvelopeStatusLine[]> {
  const progress = journalProgress((await readJournal(stateDir)).records);
  const lines: EnvelopeStatusLine[] = [];
  for (const job of jobs) {
    for (const envelope of job.envelopes) {
      const folder = itemFolder(envelope.job, envelope.key);
      const p = progress.envelopes.get(identityOf(envelope));
      let record = await readRecord<EnvelopeRecord>(outDir, itemFile(folder, 'envelope'));
      const envelopeId = p?.created?.envelopeId ?? record?.envelopeId;
      if (record && p?.status && p.status.envelopeId === record.envelopeId.toLowerCase())
        record = withFacts(record, p.status.facts);
      const line: EnvelopeStatusLine = {
        job: envelope.job,
        key: envelope.key,
        status: envelopeId ? (record?.status ?? 'sent') : 'not sent',
        recipients: [],
      };
      if (envelopeId) line.envelopeId = envelopeId;
      if (record) {
        const signing = await readRecord<SigningRecord>(outDir, itemFile(folder, 'signing')).catch(() => undefined);
        line.recipients = recipientOutcomes(record, signing).map((r) => {
          const entry = signing?.recipients.find((e) => e.recipientId === r.recipientId);
          return {
            ...r,
            ...(entry?.expiresAt ? { signingAddressExpiresAt: entry.expiresAt } : {}),
            ...(entry?.link ? { hasLink: true } : {}),
          };
        });
        copyFacts(line, record, shownFactFields);
        if (p?.status?.at) line.syncedAt = p.status.at;
      }
      lines.push(line);
    }
  }
  return lines;
}
