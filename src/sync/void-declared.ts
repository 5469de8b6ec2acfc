import type { AccountClient } from '../client/esignature-client.js';
import { ClientHttpError } from '../client/client-errors.js';
import type { OutputFolder } from '../output/output-folder.js';
import type { EnvelopeRecord } from '../output/records.js';
import { itemFile } from '../output/output-paths.js';
import { retireEarlierEnvelope } from '../output/earlier-envelope.js';
import type { Journal } from '../state/journal.js';
import type { EnvelopeProgress } from '../state/journal-progress.js';
import type { ResolvedEnvelope } from '../jobs/model.js';
import { isSettledEnvelope } from '../envelope/statuses.js';

/** An envelope of the jobs as the state knows it (sync.ts's Known). */
export interface VoidCandidate {
  envelope: ResolvedEnvelope;
  id: string;
  folder: string;
  record: EnvelopeRecord | undefined;
  progress: EnvelopeProgress | undefined;
  envelopeId: string | undefined;
}

/** What was voided, and what could not be. */
export interface VoidOutcome {
  voided: Array<{ id: string; envelopeId: string; reason: string; replaced: boolean }>;
  /** Envelopes to void or replace that are settled already: left as they are. */
  warnings: Array<{ kind: 'settled-left-as-is'; message: string }>;
}

/** The reason given to the service (and shown to the recipients) when a drifted envelope is replaced. */
export const replacedReason = 'Replaced by a corrected version of this envelope.';

/**
 * Declared voids and replacements (issue 12), before a run sends anything:
 * an envelope whose job file says `status: voided` is voided once (the
 * journal's void-intent and voided records make it once across crashes and
 * re-runs); with `replaceDrifted`, an envelope whose content changed since
 * it was sent is voided with {@link replacedReason} and its key starts
 * afresh: the journal's `voided … replaced` record makes the run create the
 * new content, and the old envelope.json is kept as history under
 * `<job>/<key>/replaced/<envelopeId>.json`. A completed or declined
 * envelope cannot be voided: it is left alone, with a warning.
 */
export async function voidDeclared(
  candidates: VoidCandidate[],
  account: AccountClient,
  journal: Journal,
  out: OutputFolder,
  options: { replaceDrifted: boolean; now: () => Date },
): Promise<VoidOutcome> {
  const outcome: VoidOutcome = { voided: [], warnings: [] };
  for (const k of candidates) {
    if (!k.envelopeId) continue;
    const envelopeId = k.envelopeId;
    const status =
      (k.progress?.status?.envelopeId === envelopeId ? k.progress.status.facts.status : undefined) ?? k.record?.status;
    const sentDigest = k.progress?.created?.digest ?? k.record?.digest;
    const declared = k.envelope.status === 'voided';
    const drifted = !declared && options.replaceDrifted && sentDigest !== undefined && sentDigest !== k.envelope.digest;
    if (!declared && !drifted) continue;
    if (k.progress?.voided?.envelopeId === envelopeId || status === 'voided') continue;
    if (isSettledEnvelope(status)) {
      outcome.warnings.push({
        kind: 'settled-left-as-is',
        message: `${k.id}: envelope ${envelopeId} is ${status} and cannot be ${declared ? 'voided' : 'replaced'}; left as it is`,
      });
      continue;
    }
    const reason = declared ? (k.envelope.voidedReason ?? 'Voided') : replacedReason;
    await journal.append({ kind: 'envelope', id: k.id, step: 'void-intent', envelopeId, reason });
    try {
      await account.voidEnvelope(envelopeId, reason, { tag: k.id });
    } catch (error) {
      // After a crash between the call and its record, the service may answer that it is voided already.
      const already = error instanceof ClientHttpError && error.status === 400 && /voided/i.test(error.message);
      if (!already) throw error;
    }
    await journal.append({
      kind: 'envelope',
      id: k.id,
      step: 'voided',
      envelopeId,
      reason,
      ...(drifted ? { replaced: true } : {}),
    });
    const at = options.now().toISOString();
    if (k.record) {
      const record: EnvelopeRecord = {
        ...k.record,
        status: 'voided',
        voidedReason: reason,
        voidedAt: at,
        updatedAt: at,
      };
      if (drifted) {
        // The key starts afresh: the run creates the new content and writes new records.
        // The voided one's record goes to replaced/<envelopeId>.json, its files under replaced/<envelopeId>/.
        await out.writeJson(itemFile(k.folder, 'envelope'), record);
        await retireEarlierEnvelope(out, k.folder);
        k.record = undefined;
      } else {
        await out.writeJson(itemFile(k.folder, 'envelope'), record);
        k.record = record;
      }
    }
    outcome.voided.push({ id: k.id, envelopeId, reason, replaced: drifted });
  }
  return outcome;
}
