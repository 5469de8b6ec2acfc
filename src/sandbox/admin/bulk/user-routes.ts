import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { accountOfOrganization, callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import { adminErrors } from '../admin-error.js';
import { adminTime, bodyObject } from '../admin-wire.js';
import type { BulkJobRecord } from './bulk-jobs.js';
import { uploadedCsv } from './csv-upload.js';
import { exportWire, startExport } from './export-wire.js';
import { parseImportCsv } from './user-import-csv.js';
import { performUserImport } from './user-import.js';
import { performUserExport } from './user-export.js';

type OrgParams = { organizationId: string };

/**
 * The Admin API's bulk user imports (add, update, close: a CSV in, the
 * per-row results CSV out) and user list exports (a CSV), each a bulk job
 * followed through its status.
 */
export const bulkUserRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox, jobs } = context;
  jobs.perform('user_import', (job, now) => performUserImport(context, job, now));
  jobs.perform('user_export', (job) => performUserExport(context, job));

  const jobOf = (request: FastifyRequest, id: string, kind: BulkJobRecord['kind']) => {
    const job = jobs.job(id);
    if (!job || job.organizationId !== organizationOf(request).id || job.kind !== kind)
      throw adminErrors.notFound(`Request ${id}`);
    return job;
  };

  /** `#/definitions/OrganizationImportResponse`. */
  const importWire = (job: BulkJobRecord) => {
    const user = sandbox.accounts.user(job.requestorUserId);
    const done = job.status === 'completed';
    return {
      id: job.id,
      type: job.type,
      requestor: { name: user?.userName, id: job.requestorUserId, type: 'user', email: user?.email },
      created: adminTime(job.createdAt),
      last_modified: adminTime(job.completedAt ?? job.createdAt),
      status: job.status,
      ...(job.result ?? { user_count: 0, processed_user_count: 0, error_count: 0 }),
      has_csv_results: done,
      ...(done
        ? {
            results_uri: `${context.origin()}/management/v2/organizations/${job.organizationId}/imports/bulk_users/${job.id}/results_csv`,
          }
        : {}),
    };
  };

  const startImport = (request: FastifyRequest<{ Params: OrgParams & { accountId?: string } }>, type: string) => {
    const organization = organizationOf(request);
    const accountId =
      request.params.accountId !== undefined
        ? accountOfOrganization(context, organization, request.params.accountId).account.id
        : undefined;
    const csv = uploadedCsv(request);
    parseImportCsv(csv, accountId === undefined); // an unreadable file is refused now, before it is queued
    const job = jobs.start(
      {
        organizationId: organization.id,
        kind: 'user_import',
        type,
        request: accountId !== undefined ? { accountId } : {},
        inputCsv: csv,
        requestorUserId: callerOf(request).principal.user.id,
      },
      sandbox.clock.now(),
      context.workDelayMs,
    );
    return importWire(job);
  };

  for (const type of ['add', 'update', 'close', 'close_external']) {
    app.post<{ Params: OrgParams }>(
      `/v2/organizations/:organizationId/imports/bulk_users/${type}`,
      { config: { adminScope: 'user_write' } },
      async (request) => startImport(request, type),
    );
  }
  for (const type of ['add', 'update']) {
    app.post<{ Params: OrgParams & { accountId: string } }>(
      `/v2/organizations/:organizationId/accounts/:accountId/imports/bulk_users/${type}`,
      { config: { adminScope: 'user_write' } },
      async (request) => startImport(request, type),
    );
  }

  app.get<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/imports/bulk_users',
    { config: { adminScope: 'user_read' } },
    async (request) => ({ imports: jobs.ofOrganization(organizationOf(request).id, 'user_import').map(importWire) }),
  );
  app.get<{ Params: OrgParams & { importId: string } }>(
    '/v2/organizations/:organizationId/imports/bulk_users/:importId',
    { config: { adminScope: 'user_read' } },
    async (request) => importWire(jobOf(request, request.params.importId, 'user_import')),
  );
  app.delete<{ Params: OrgParams & { importId: string } }>(
    '/v2/organizations/:organizationId/imports/bulk_users/:importId',
    { config: { adminScope: 'user_write' } },
    async (request) => {
      jobs.remove(jobOf(request, request.params.importId, 'user_import').id);
      return {};
    },
  );
  app.get<{ Params: OrgParams & { importId: string } }>(
    '/v2/organizations/:organizationId/imports/bulk_users/:importId/results_csv',
    { config: { adminScope: 'user_read' } },
    async (request, reply) => {
      const job = jobOf(request, request.params.importId, 'user_import');
      if (job.status !== 'completed' || job.resultCsv === null)
        throw adminErrors.notFound(`The results of import ${job.id} (it is ${job.status})`);
      void reply.header('content-type', 'text/csv; charset=utf-8');
      return job.resultCsv;
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/exports/user_list',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      const body = bodyObject(request.body ?? {}, 'an OrganizationExportRequest');
      const type =
        typeof body['type'] === 'string' && body['type'] !== '' ? body['type'] : 'organization_memberships_export';
      return startExport(context, request, { kind: 'user_export', type, accountsRequired: false });
    },
  );
  app.get<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/exports/user_list',
    { config: { adminScope: 'user_read' } },
    async (request) => ({
      exports: jobs
        .ofOrganization(organizationOf(request).id, 'user_export')
        .map((job) => exportWire(sandbox, context.origin(), job)),
    }),
  );
  app.get<{ Params: OrgParams & { exportId: string } }>(
    '/v2/organizations/:organizationId/exports/user_list/:exportId',
    { config: { adminScope: 'user_read' } },
    async (request) => exportWire(sandbox, context.origin(), jobOf(request, request.params.exportId, 'user_export')),
  );
  app.delete<{ Params: OrgParams & { exportId: string } }>(
    '/v2/organizations/:organizationId/exports/user_list/:exportId',
    { config: { adminScope: 'user_read' } },
    async (request) => {
      jobs.remove(jobOf(request, request.params.exportId, 'user_export').id);
      return {};
    },
  );
};
