import type { SandboxDatabase } from '../../db/open-database.js';

/** DocuSign's setting names are identifiers (accountSettingsInformation's properties). */
export const settingNamePattern = /^[A-Za-z][A-Za-z0-9_]*$/;

export type AccountSettingsStore = ReturnType<typeof accountSettingsStore>;

/**
 * An account's settings (DocuSign's `accountSettingsInformation` names,
 * values as the strings DocuSign's wire carries): the one store the Admin
 * API's settings export/import and account clone read and write. A setting
 * never set is absent (DocuSign's default).
 */
export function accountSettingsStore(db: SandboxDatabase) {
  const q = {
    all: db.prepare<[string], { name: string; value: string }>(
      'SELECT name, value FROM account_settings WHERE account_id = ? ORDER BY name',
    ),
    put: db.prepare('INSERT OR REPLACE INTO account_settings (account_id, name, value) VALUES (?, ?, ?)'),
    copy: db.prepare(
      'INSERT OR REPLACE INTO account_settings (account_id, name, value) SELECT ?, name, value FROM account_settings WHERE account_id = ?',
    ),
  };
  return {
    /** The account's settings that were set, by name. */
    of(accountId: string): Record<string, string> {
      return Object.fromEntries(q.all.all(accountId).map((r) => [r.name, r.value]));
    },
    /** Sets the named settings (others kept), in one transaction. */
    put(accountId: string, settings: Readonly<Record<string, string>>): void {
      db.transaction(() => {
        for (const [name, value] of Object.entries(settings)) q.put.run(accountId, name, value);
      })();
    },
    /** Copies every setting of `fromAccountId` onto `toAccountId` (a clone). */
    copy(fromAccountId: string, toAccountId: string): void {
      q.copy.run(toAccountId, fromAccountId);
    },
  };
}
