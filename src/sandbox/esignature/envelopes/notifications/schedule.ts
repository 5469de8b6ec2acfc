/** DocuSign's `notification` as the sandbox keeps it: days, numbers. */
export interface NotificationSettings {
  reminderEnabled: boolean;
  reminderDelayDays: number;
  reminderFrequencyDays: number;
  expireEnabled: boolean;
  expireAfterDays: number;
  expireWarnDays: number;
}

const day = 24 * 60 * 60_000;

/** What is due for one envelope at `now`, given when it was sent and what was already done. */
export interface DueNotifications {
  /** Reminders to send now (0 or more: a clock moved far forward catches up, one message per reminder). */
  reminders: number;
  warn: boolean;
  expire: boolean;
}

/**
 * The reminder and expiration schedule of DocuSign's notification object:
 * the first reminder `reminderDelay` days after sending, then one every
 * `reminderFrequency` days (0: only the first); the envelope expires
 * `expireAfter` days after sending, and recipients are warned `expireWarn`
 * days before. Pure, so the schedule is tested without a server.
 */
export function dueNotifications(
  settings: NotificationSettings,
  sentAt: number,
  now: number,
  done: { remindersSent: number; warned: boolean },
): DueNotifications {
  const expiresAt = sentAt + settings.expireAfterDays * day;
  const expire = settings.expireEnabled && now >= expiresAt;
  const warn =
    settings.expireEnabled &&
    settings.expireWarnDays > 0 &&
    !done.warned &&
    !expire &&
    now >= expiresAt - settings.expireWarnDays * day;
  let reminders = 0;
  if (settings.reminderEnabled && !expire) {
    const first = sentAt + settings.reminderDelayDays * day;
    let due = 0;
    if (now >= first) {
      due = 1;
      if (settings.reminderFrequencyDays > 0) due += Math.floor((now - first) / (settings.reminderFrequencyDays * day));
    }
    reminders = Math.max(0, due - done.remindersSent);
  }
  return { reminders, warn, expire };
}

/**
 * The earliest time at which {@link dueNotifications} has something to do
 * for this envelope, given what was already done; Infinity when nothing
 * ever will. Lets the sandbox skip looking at every open envelope on every
 * request while nothing can be due (notifications/plugin.ts).
 */
export function nextDueAt(
  settings: NotificationSettings,
  sentAt: number,
  done: { remindersSent: number; warned: boolean },
): number {
  let next = Infinity;
  if (settings.expireEnabled) {
    const expiresAt = sentAt + settings.expireAfterDays * day;
    next = expiresAt;
    if (settings.expireWarnDays > 0 && !done.warned) next = Math.min(next, expiresAt - settings.expireWarnDays * day);
  }
  if (settings.reminderEnabled) {
    const first = sentAt + settings.reminderDelayDays * day;
    // The (n+1)th reminder is due at first + n × frequency (dueNotifications counts them so).
    if (done.remindersSent === 0) next = Math.min(next, first);
    else if (settings.reminderFrequencyDays > 0)
      next = Math.min(next, first + done.remindersSent * settings.reminderFrequencyDays * day);
  }
  return next;
}

/** The job file's / wire's notification object (strings, as DocuSign sends them) as settings; undefined when it says nothing. */
export function settingsOf(notification: unknown): NotificationSettings | undefined {
  if (notification === null || typeof notification !== 'object') return undefined;
  const n = notification as Record<string, Record<string, unknown> | undefined>;
  const r = n['reminders'];
  const e = n['expirations'];
  if (!r && !e) return undefined;
  const bool = (v: unknown, fallback: boolean) =>
    v === undefined ? fallback : v === true || (typeof v === 'string' && v.toLowerCase() === 'true');
  const num = (v: unknown, fallback: number) => {
    const x = Number(v);
    return v === undefined || !Number.isFinite(x) || x < 0 ? fallback : x;
  };
  return {
    reminderEnabled: r ? bool(r['reminderEnabled'], false) : false,
    reminderDelayDays: num(r?.['reminderDelay'], 0),
    reminderFrequencyDays: num(r?.['reminderFrequency'], 0),
    expireEnabled: e ? bool(e['expireEnabled'], false) : false,
    expireAfterDays: num(e?.['expireAfter'], 120),
    expireWarnDays: num(e?.['expireWarn'], 0),
  };
}
