import type { SandboxServices } from '../../services.js';
import { adminTime, sandboxSite } from '../admin-wire.js';
import type { BulkJobRecord } from './bulk-jobs.js';

/** How long an export's CSV is kept, as DocuSign says in `expires`. */
const exportLifetimeMs = 7 * 24 * 3600 * 1000;

/** Where an export's CSV is read (Bearer token, as DocuSign's eg003 reads it). */
export function exportCsvUrl(origin: string, job: BulkJobRecord): string {
  return `${origin}/management/v2/organizations/${job.organizationId}/exports/${job.id}/results.csv`;
}

/** `#/definitions/OrganizationExportResponse`. */
export function exportWire(sandbox: SandboxServices, origin: string, job: BulkJobRecord) {
  const user = sandbox.accounts.user(job.requestorUserId);
  const done = job.status === 'completed';
  const rows = typeof job.result?.['number_rows'] === 'number' ? job.result['number_rows'] : 0;
  const size = job.resultCsv === null ? 0 : Buffer.byteLength(job.resultCsv);
  const accounts = job.request['accounts'];
  return {
    id: job.id,
    type: job.type,
    requestor: { name: user?.userName, id: job.requestorUserId, type: 'user', email: user?.email },
    created: adminTime(job.createdAt),
    last_modified: adminTime(job.completedAt ?? job.createdAt),
    ...(done ? { completed: adminTime(job.completedAt) } : {}),
    expires: adminTime(job.createdAt + exportLifetimeMs),
    status: job.status,
    ...(Array.isArray(accounts) ? { selected_accounts: accounts } : {}),
    percent_completed: done ? 100 : 0,
    number_rows: rows,
    size_bytes: size,
    results: done
      ? [
          {
            id: job.id,
            site_id: sandboxSite.siteId,
            url: exportCsvUrl(origin, job),
            number_rows: rows,
            size_bytes: size,
          },
        ]
      : [],
    success: done,
  };
}
