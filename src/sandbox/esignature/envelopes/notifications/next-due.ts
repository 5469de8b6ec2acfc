import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import { nextDueAt, type NotificationSettings } from './schedule.js';

/**
 * When the open envelopes' reminders, warnings and expiries must be looked
 * at again. Looking reads and parses every open envelope's settings, and
 * the sandbox does it before every request: with reminders on 2,000 sent
 * envelopes a request cost 25 ms of CPU instead of 0.5. Nothing open can
 * fall due before the time kept here, which stays exact because every
 * envelope sent or given settings in this process is taken in, and any
 * commit by another process on the same data folder (SQLite's
 * data_version, which this connection's own commits leave alone) means
 * looking again.
 */
export function nextDueTracker(db: SandboxDatabase) {
  const openOne = db.prepare<
    [string],
    { settings: string; remindersSent: number; warned: number; sentAt: number | null }
  >(
    `SELECT n.settings_json AS settings, n.reminders_sent AS remindersSent, n.warned AS warned, e.sent_at AS sentAt
       FROM envelope_notifications n JOIN envelopes e ON e.id = n.envelope_id
      WHERE n.envelope_id = ? AND e.status IN ('sent', 'delivered')`,
  );
  const dataVersion = db.prepare<[], number>('PRAGMA data_version').pluck();
  /** -Infinity: not known, look. */
  let nextDue = -Infinity;
  let lookedAtVersion: number | undefined;
  return {
    /** The stamp to hand to `looked` when the open envelopes must be looked at now; undefined when nothing can be due. */
    mustLook(now: number): number | undefined {
      const version = dataVersion.get()!;
      return version === lookedAtVersion && now < nextDue ? undefined : version;
    },
    /** After a look: the earliest time anything still open falls due (Infinity: never). */
    looked(version: number, earliest: number): void {
      nextDue = earliest;
      lookedAtVersion = version;
    },
    /** Look at the next chance. */
    forget(): void {
      nextDue = -Infinity;
    },
    /** An envelope just sent, or just given its settings: its next due time counts. */
    takeIn(envelopeId: string): void {
      const row = openOne.get(envelopeId);
      if (row === undefined || row.sentAt === null) return;
      const settings = JSON.parse(row.settings) as NotificationSettings;
      nextDue = Math.min(
        nextDue,
        nextDueAt(settings, row.sentAt, { remindersSent: row.remindersSent, warned: row.warned === 1 }),
      );
    },
  };
}
