import { recipientKind, recipientKinds, shorthandRecipientKind, type RecipientKind } from '../envelope/index.js';
import type { RawRecipient, RawRecipients } from './raw-job.js';

/** One recipient of a job file with its kind and where it is written, from its envelope. */
export interface WrittenRecipient {
  kind: RecipientKind;
  recipient: RawRecipient;
  /** `['recipients', i]` (list form) or `['recipients', '<collection>', i]` (object form). */
  written: ReadonlyArray<string | number>;
}

/**
 * The recipients of an envelope as the job file writes them: the list form
 * is the shorthand kind's (signers); the object form has one list per
 * collection, read in catalogue order — the order in which recipientIds are
 * numbered. The one place that tells the forms apart, for structure checks,
 * expansion and references alike.
 */
export function writtenRecipients(recipients: RawRecipients | undefined): readonly WrittenRecipient[] {
  if (recipients === undefined) return [];
  // Every row of a forEach pattern shares its raw recipients: read them once.
  let read = readByRecipients.get(recipients);
  if (read === undefined) {
    read = readRecipients(recipients);
    readByRecipients.set(recipients, read);
  }
  return read;
}

const readByRecipients = new WeakMap<RawRecipients, readonly WrittenRecipient[]>();

function readRecipients(recipients: RawRecipients): readonly WrittenRecipient[] {
  if (Array.isArray(recipients)) {
    const kind = recipientKind(shorthandRecipientKind);
    return recipients.map((recipient, i) => ({ kind, recipient, written: ['recipients', i] }));
  }
  const out: WrittenRecipient[] = [];
  const byCollection = recipients as Record<string, RawRecipient[] | undefined>;
  for (const kind of recipientKinds)
    byCollection[kind.collection]?.forEach((recipient, i) =>
      out.push({ kind, recipient, written: ['recipients', kind.collection, i] }),
    );
  return out;
}
