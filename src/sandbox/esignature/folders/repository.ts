import { createHash } from 'node:crypto';
import type { SandboxDatabase } from '../../platform/db/open-database.js';

/**
 * DocuSign's system folders of an account, by their `type` (the word the
 * API also takes in place of a folder id: `PUT …/folders/recyclebin`), with
 * the names DocuSign's web app shows them by.
 */
export const systemFolders = [
  { type: 'inbox', name: 'Inbox' },
  { type: 'sentitems', name: 'Sent Items' },
  { type: 'draft', name: 'Draft' },
  { type: 'recyclebin', name: 'Deleted Items' },
] as const;
export type FolderType = (typeof systemFolders)[number]['type'];

/** A folder's id: a GUID, the same for the account's folder of that type every time (DocuSign's are GUIDs too). */
export function folderIdOf(accountId: string, type: FolderType): string {
  const h = createHash('sha256').update(`${accountId}\u0000${type}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/** The folder type a path's folderId names: the type word itself (any case) or the account's folder GUID. */
export function folderTypeOf(accountId: string, folderId: string): FolderType | undefined {
  const word = folderId.toLowerCase();
  return systemFolders.find((f) => f.type === word || folderIdOf(accountId, f.type) === word)?.type;
}

export type EnvelopeFolders = ReturnType<typeof createEnvelopeFolders>;

const stores = new WeakMap<SandboxDatabase, EnvelopeFolders>();

/** Which folder each envelope is in (table `envelope_folders`, db/schema.ts). */
export function envelopeFolders(db: SandboxDatabase): EnvelopeFolders {
  let store = stores.get(db);
  if (!store) {
    store = createEnvelopeFolders(db);
    stores.set(db, store);
  }
  return store;
}

// An envelope nobody moved is where its status puts it: a draft in Draft, a
// discarded draft in the recycle bin, anything sent in Sent Items.
const folderSql = `COALESCE(f.folder, CASE e.status WHEN 'created' THEN 'draft' WHEN 'deleted' THEN 'recyclebin' ELSE 'sentitems' END)`;

function createEnvelopeFolders(db: SandboxDatabase) {
  const move = db.prepare('INSERT OR REPLACE INTO envelope_folders (envelope_id, folder, moved_at) VALUES (?, ?, ?)');
  const folderOf = db.prepare<[string], { folder: FolderType }>(
    `SELECT ${folderSql} AS folder FROM envelopes e LEFT JOIN envelope_folders f ON f.envelope_id = e.id WHERE e.id = ?`,
  );
  const inFolder = db.prepare<[string, string], { id: string }>(
    `SELECT e.id FROM envelopes e LEFT JOIN envelope_folders f ON f.envelope_id = e.id
     WHERE e.account_id = ? AND ${folderSql} = ? ORDER BY e.created_at DESC, e.id`,
  );
  const counts = db.prepare<[string], { folder: FolderType; n: number }>(
    `SELECT ${folderSql} AS folder, COUNT(*) AS n FROM envelopes e LEFT JOIN envelope_folders f ON f.envelope_id = e.id
     WHERE e.account_id = ? GROUP BY 1`,
  );
  return {
    /** The folder an envelope is in. */
    folderOf(envelopeId: string): FolderType | undefined {
      return folderOf.get(envelopeId)?.folder;
    },
    /** Puts an envelope in a folder. */
    move(envelopeId: string, folder: FolderType, now: number): void {
      move.run(envelopeId, folder, now);
    },
    /** The ids of the account's envelopes in a folder, newest first. */
    envelopeIds(accountId: string, folder: FolderType): string[] {
      return inFolder.all(accountId, folder).map((r) => r.id);
    },
    /** How many envelopes each folder holds. */
    counts(accountId: string): Partial<Record<FolderType, number>> {
      return Object.fromEntries(counts.all(accountId).map((r) => [r.folder, r.n]));
    },
  };
}
