import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { BulkSendingCopy, BulkSendingCopyRecipient } from '../../../envelope/bulk-send-copy.js';

/** A recipient of one copy as stored: the wire's (src/envelope/bulk-send-copy.ts) with its access code hashed. */
export type BulkCopyRecipient = Omit<BulkSendingCopyRecipient, 'accessCode'> & {
  /** scrypt hash of the copy's access code (auth/password-hash.ts), made when the list is stored: the code itself is never kept. */
  accessCodeHash?: string;
};

/** One copy of a list (`#/definitions/bulkSendingCopy`) as stored. */
export type BulkCopy = Omit<BulkSendingCopy, 'recipients'> & { recipients: BulkCopyRecipient[] };

/** A bulk send list (`#/definitions/bulkSendingList`). */
export interface BulkSendListRecord {
  id: string;
  accountId: string;
  name: string;
  createdByUserId: string;
  createdAt: number;
  copies: BulkCopy[];
}

/** A batch: a list sent with a model (`#/definitions/bulkSendBatchStatus`). */
export interface BulkSendBatchRecord {
  id: string;
  accountId: string;
  name: string;
  listId: string;
  modelId: string;
  modelKind: 'envelope' | 'template';
  senderUserId: string;
  submittedAt: number;
  size: number;
}

/** Where a batch's copies stand: DocuSign's `queued`, `sent`, `failed` counts, and the failures' messages. */
export interface BatchCounts {
  queued: number;
  sent: number;
  failed: number;
  errors: Array<{ position: number; message: string; at: number; emails: string[] }>;
}

/** A copy waiting to be made (the worker's unit of work). */
export interface QueuedCopy {
  batchId: string;
  position: number;
  copy: BulkCopy;
}

export type BulkSendRepository = ReturnType<typeof bulkSendRepository>;

const listOf = (r: Record<string, unknown>): BulkSendListRecord => ({
  id: r['id'] as string,
  accountId: r['account_id'] as string,
  name: r['name'] as string,
  createdByUserId: r['created_by_user_id'] as string,
  createdAt: r['created_at'] as number,
  copies: JSON.parse(r['copies_json'] as string) as BulkCopy[],
});

const batchOf = (r: Record<string, unknown>): BulkSendBatchRecord => ({
  id: r['id'] as string,
  accountId: r['account_id'] as string,
  name: r['name'] as string,
  listId: r['list_id'] as string,
  modelId: r['model_id'] as string,
  modelKind: r['model_kind'] as 'envelope' | 'template',
  senderUserId: r['sender_user_id'] as string,
  submittedAt: r['submitted_at'] as number,
  size: r['size'] as number,
});

/** Bulk send lists, batches and each batch's copies (db/schema.ts, version 5). */
export function bulkSendRepository(db: SandboxDatabase) {
  const insertList = db.prepare(
    'INSERT INTO bulk_send_lists (id, account_id, name, created_by_user_id, created_at, copies_json) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const selectList = db.prepare('SELECT * FROM bulk_send_lists WHERE account_id = ? AND id = ?');
  const selectLists = db.prepare(
    "SELECT id, account_id, name, created_by_user_id, created_at, '[]' AS copies_json FROM bulk_send_lists WHERE account_id = ? ORDER BY created_at, id",
  );
  const updateList = db.prepare('UPDATE bulk_send_lists SET name = ?, copies_json = ? WHERE account_id = ? AND id = ?');
  const deleteList = db.prepare('DELETE FROM bulk_send_lists WHERE account_id = ? AND id = ?');
  const insertBatch = db.prepare(
    'INSERT INTO bulk_send_batches (id, account_id, name, list_id, model_id, model_kind, sender_user_id, submitted_at, size) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertCopy = db.prepare(
    "INSERT INTO bulk_send_copies (batch_id, position, copy_json, status) VALUES (?, ?, ?, 'queued')",
  );
  const selectBatch = db.prepare('SELECT * FROM bulk_send_batches WHERE account_id = ? AND id = ?');
  const selectBatchById = db.prepare('SELECT * FROM bulk_send_batches WHERE id = ?');
  const selectBatches = db.prepare('SELECT * FROM bulk_send_batches WHERE account_id = ? ORDER BY submitted_at, id');
  const renameBatch = db.prepare('UPDATE bulk_send_batches SET name = ? WHERE account_id = ? AND id = ?');
  const countCopies = db.prepare(
    'SELECT status, COUNT(*) AS n FROM bulk_send_copies WHERE batch_id = ? GROUP BY status',
  );
  const failedCopies = db.prepare(
    "SELECT position, error, at, copy_json FROM bulk_send_copies WHERE batch_id = ? AND status = 'failed' ORDER BY position",
  );
  const queuedCopies = db.prepare(
    "SELECT batch_id, position, copy_json FROM bulk_send_copies WHERE status = 'queued' ORDER BY batch_id, position LIMIT ?",
  );
  const copyEnvelopes = db.prepare(
    "SELECT envelope_id FROM bulk_send_copies WHERE batch_id = ? AND status = 'sent' ORDER BY position",
  );
  const markCopy = db.prepare(
    'UPDATE bulk_send_copies SET status = ?, envelope_id = ?, error = ?, at = ? WHERE batch_id = ? AND position = ?',
  );
  const storeBatch = db.transaction((batch: BulkSendBatchRecord, copies: BulkCopy[]) => {
    insertBatch.run(
      batch.id,
      batch.accountId,
      batch.name,
      batch.listId,
      batch.modelId,
      batch.modelKind,
      batch.senderUserId,
      batch.submittedAt,
      batch.size,
    );
    copies.forEach((copy, position) => insertCopy.run(batch.id, position, JSON.stringify(copy)));
  });
  const queuedInAccount = db.prepare(
    "SELECT COUNT(*) AS n FROM bulk_send_copies c JOIN bulk_send_batches b ON b.id = c.batch_id WHERE b.account_id = ? AND c.status = 'queued'",
  );

  return {
    insertList(list: BulkSendListRecord): void {
      insertList.run(
        list.id,
        list.accountId,
        list.name,
        list.createdByUserId,
        list.createdAt,
        JSON.stringify(list.copies),
      );
    },
    list(accountId: string, listId: string): BulkSendListRecord | undefined {
      const row = selectList.get(accountId, listId) as Record<string, unknown> | undefined;
      return row && listOf(row);
    },
    /** The account's lists without their copies (the summaries' listing). */
    lists(accountId: string): BulkSendListRecord[] {
      return (selectLists.all(accountId) as Array<Record<string, unknown>>).map(listOf);
    },
    updateList(accountId: string, listId: string, name: string, copies: BulkCopy[]): void {
      updateList.run(name, JSON.stringify(copies), accountId, listId);
    },
    deleteList(accountId: string, listId: string): boolean {
      return deleteList.run(accountId, listId).changes > 0;
    },
    /** The batch and every copy queued, in one transaction: a batch is never seen without its copies. */
    insertBatch(batch: BulkSendBatchRecord, copies: BulkCopy[]): void {
      storeBatch(batch, copies);
    },
    batch(accountId: string, batchId: string): BulkSendBatchRecord | undefined {
      const row = selectBatch.get(accountId, batchId) as Record<string, unknown> | undefined;
      return row && batchOf(row);
    },
    batchById(batchId: string): BulkSendBatchRecord | undefined {
      const row = selectBatchById.get(batchId) as Record<string, unknown> | undefined;
      return row && batchOf(row);
    },
    batches(accountId: string): BulkSendBatchRecord[] {
      return (selectBatches.all(accountId) as Array<Record<string, unknown>>).map(batchOf);
    },
    renameBatch(accountId: string, batchId: string, name: string): void {
      renameBatch.run(name, accountId, batchId);
    },
    counts(batchId: string): BatchCounts {
      const counts: BatchCounts = { queued: 0, sent: 0, failed: 0, errors: [] };
      for (const row of countCopies.all(batchId) as Array<{ status: 'queued' | 'sent' | 'failed'; n: number }>)
        counts[row.status] = row.n;
      if (counts.failed > 0)
        counts.errors = (failedCopies.all(batchId) as Array<Record<string, unknown>>).map((r) => ({
          position: r['position'] as number,
          message: (r['error'] as string | null) ?? '',
          at: (r['at'] as number | null) ?? 0,
          emails: (JSON.parse(r['copy_json'] as string) as BulkCopy).recipients.flatMap((x) =>
            x.email ? [x.email] : [],
          ),
        }));
      return counts;
    },
    /** Copies still to make, oldest batch first. */
    queued(limit: number): QueuedCopy[] {
      return (queuedCopies.all(limit) as Array<Record<string, unknown>>).map((r) => ({
        batchId: r['batch_id'] as string,
        position: r['position'] as number,
        copy: JSON.parse(r['copy_json'] as string) as BulkCopy,
      }));
    },
    /** Envelope ids of a batch's copies made so far, in list order. */
    envelopeIds(batchId: string): string[] {
      return (copyEnvelopes.all(batchId) as Array<{ envelope_id: string }>).map((r) => r.envelope_id);
    },
    markSent(batchId: string, position: number, envelopeId: string, at: number): void {
      markCopy.run('sent', envelopeId, null, at, batchId, position);
    },
    markFailed(batchId: string, position: number, message: string, at: number): void {
      markCopy.run('failed', null, message, at, batchId, position);
    },
    /** Copies of the account waiting (`totalQueued`). */
    queuedInAccount(accountId: string): number {
      return (queuedInAccount.get(accountId) as { n: number }).n;
    },
  };
}
