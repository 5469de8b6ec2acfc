import { randomUUID } from 'node:crypto';
import type { SandboxDatabase } from '../../db/open-database.js';

/** The organisation's bulk jobs: user imports and exports, account settings exports and imports. */
export type BulkJobKind = 'user_import' | 'user_export' | 'settings_export' | 'settings_import';
export type BulkJobStatus = 'queued' | 'completed' | 'failed';

export interface BulkJobRecord {
  id: string;
  organizationId: string;
  kind: BulkJobKind;
  /** The wire's type: add, update, close (imports), organization_memberships_export … */
  type: string;
  status: BulkJobStatus;
  request: Record<string, unknown>;
  inputCsv: string | null;
  /** What the job found, for its wire (counts, per-account issues …). */
  result: Record<string, unknown> | null;
  resultCsv: string | null;
  createdAt: number;
  dueAt: number;
  completedAt: number | null;
  requestorUserId: string;
}

interface Row {
  id: string;
  organization_id: string;
  kind: BulkJobKind;
  type: string;
  status: BulkJobStatus;
  request_json: string;
  input_csv: string | null;
  result_json: string | null;
  result_csv: string | null;
  created_at: number;
  due_at: number;
  completed_at: number | null;
  requestor_user_id: string;
}

const toJob = (r: Row): BulkJobRecord => ({
  id: r.id,
  organizationId: r.organization_id,
  kind: r.kind,
  type: r.type,
  status: r.status,
  request: JSON.parse(r.request_json) as Record<string, unknown>,
  inputCsv: r.input_csv,
  result: r.result_json === null ? null : (JSON.parse(r.result_json) as Record<string, unknown>),
  resultCsv: r.result_csv,
  createdAt: r.created_at,
  dueAt: r.due_at,
  completedAt: r.completed_at,
  requestorUserId: r.requestor_user_id,
});

/** Does a job's work (inside its transaction) and says what it found. */
export type BulkJobPerformer = (job: BulkJobRecord, now: number) => { result: Record<string, unknown>; csv: string };

export type BulkJobs = ReturnType<typeof bulkJobs>;

/**
 * Bulk jobs as DocuSign runs them: queued when asked, done once due (on the
 * sandbox's clock) by the first request or tick after that, each in one
 * transaction with what it changes, so a job is done exactly once.
 */
export function bulkJobs(db: SandboxDatabase) {
  const performers = new Map<BulkJobKind, BulkJobPerformer>();
  const q = {
    insert: db.prepare(
      `INSERT INTO admin_bulk_jobs (id, organization_id, kind, type, status, request_json, input_csv, created_at, due_at, requestor_user_id)
       VALUES (?, ?, ?, ?, 'queued', ?, ?, ?, ?, ?)`,
    ),
    byId: db.prepare<[string], Row>('SELECT * FROM admin_bulk_jobs WHERE id = ?'),
    ofOrg: db.prepare<[string, string], Row>(
      'SELECT * FROM admin_bulk_jobs WHERE organization_id = ? AND kind = ? ORDER BY created_at, id',
    ),
    due: db.prepare<[number], Row>(
      "SELECT * FROM admin_bulk_jobs WHERE status = 'queued' AND due_at <= ? ORDER BY due_at, id",
    ),
    complete: db.prepare(
      "UPDATE admin_bulk_jobs SET status = 'completed', result_json = ?, result_csv = ?, completed_at = ? WHERE id = ? AND status = 'queued'",
    ),
    remove: db.prepare('DELETE FROM admin_bulk_jobs WHERE id = ?'),
  };
  return {
    /** How jobs of a kind are done (each group registers its own). */
    perform(kind: BulkJobKind, performer: BulkJobPerformer): void {
      performers.set(kind, performer);
    },
    start(
      job: Pick<BulkJobRecord, 'organizationId' | 'kind' | 'type' | 'request' | 'inputCsv' | 'requestorUserId'>,
      now: number,
      delayMs: number,
    ): BulkJobRecord {
      const id = randomUUID();
      q.insert.run(
        id,
        job.organizationId,
        job.kind,
        job.type,
        JSON.stringify(job.request),
        job.inputCsv,
        now,
        now + delayMs,
        job.requestorUserId,
      );
      return toJob(q.byId.get(id)!);
    },
    job(id: string): BulkJobRecord | undefined {
      const row = q.byId.get(id.toLowerCase());
      return row && toJob(row);
    },
    ofOrganization(organizationId: string, kind: BulkJobKind): BulkJobRecord[] {
      return q.ofOrg.all(organizationId, kind).map(toJob);
    },
    remove(id: string): void {
      q.remove.run(id);
    },
    settleDue(now: number): void {
      for (const row of q.due.all(now)) {
        const job = toJob(row);
        const performer = performers.get(job.kind);
        if (!performer) continue;
        db.transaction(() => {
          const { result, csv } = performer(job, now);
          q.complete.run(JSON.stringify(result), csv, now, job.id);
        })();
      }
    },
  };
}
