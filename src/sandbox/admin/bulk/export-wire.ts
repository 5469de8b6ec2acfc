import type { FastifyRequest } from 'fastify';
import type { AdminServices } from '../admin-services.js';
import { accountOfOrganization, callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { adminTime, bodyObject, sandboxSite } from '../admin-wire.js';
import type { BulkJobKind, BulkJobRecord } from './bulk-jobs.js';

/** How long an export's CSV is kept, as DocuSign says in `expires`. */
const exportLifetimeMs = 7 * 24 * 3600 * 1000;

/** Where an export's CSV is read (Bearer token, as DocuSign's eg003 reads it). */
export function exportCsvUrl(origin: string, job: BulkJobRecord): string {
  return `${origin}/management/v2/organizations/${job.organizationId}/exports/${job.id}/results.csv`;
}

/** `#/definitions/OrganizationExportResponse`. */
export function exportWire(sandbox: AdminServices, origin: string, job: BulkJobRecord) {
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

/**
 * Starts an export (the account settings export, the user list export) the
 * request asked for: its `accounts` ([{ account_id }], each an account of the
 * path's organisation; `required`: at least one) read from the body, the job
 * recorded as the caller's, due after the Admin API's work delay. Its
 * `#/definitions/OrganizationExportResponse`.
 */
export function startExport(
  context: AdminContext,
  request: FastifyRequest,
  what: { kind: Extract<BulkJobKind, 'settings_export' | 'user_export'>; type: string; accountsRequired: boolean },
) {
  const organization = organizationOf(request);
  const body = bodyObject(request.body ?? {}, 'an OrganizationExportRequest ({ accounts: [{ account_id }] })');
  const listed = Array.isArray(body['accounts']) ? (body['accounts'] as unknown[]) : undefined;
  if (what.accountsRequired && (listed?.length ?? 0) === 0)
    throw adminErrors.invalidRequest("'accounts' must list at least one { account_id }.");
  const accounts = listed?.map((entry, i) => {
    const id = bodyObject(entry, `accounts[${i}]`)['account_id'];
    if (typeof id !== 'string') throw adminErrors.invalidRequest(`'accounts[${i}].account_id' is required.`);
    return { account_id: accountOfOrganization(context, organization, id).account.id };
  });
  const job = context.jobs.start(
    {
      organizationId: organization.id,
      kind: what.kind,
      type: what.type,
      request: accounts ? { accounts } : {},
      inputCsv: null,
      requestorUserId: callerOf(request).principal.user.id,
    },
    context.sandbox.clock.now(),
    context.workDelayMs,
  );
  return exportWire(context.sandbox, context.origin(), job);
}
