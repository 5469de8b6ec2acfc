import type { FastifyPluginAsync } from 'fastify';
import { callerOf, organizationOf, type AdminContext } from '../admin-context.js';
import type { AdminServices } from '../admin-services.js';
import { adminErrors } from '../admin-error.js';
import { adminTime, sandboxSite } from '../admin-wire.js';
import type { BulkJobRecord } from '../bulk/bulk-jobs.js';
import { exportWire, startExport } from '../bulk/export-wire.js';
import { uploadedCsv } from '../bulk/csv-upload.js';
import { parseSettingsCsv, settingsCsv } from './settings-csv.js';

type OrgParams = { organizationId: string };
type ExportParams = OrgParams & { exportId: string };
type ImportParams = OrgParams & { importId: string };

/** `#/definitions/OrganizationAccountSettingsImportResponse`. */
function importWire(sandbox: AdminServices, job: BulkJobRecord) {
  const user = sandbox.accounts.user(job.requestorUserId);
  const done = job.status === 'completed';
  const processed = Number(job.result?.['processed'] ?? 0);
  const issues = (job.result?.['issues'] as Array<Record<string, string>> | undefined) ?? [];
  return {
    id: job.id,
    organization_id: job.organizationId,
    type: job.type,
    status: job.status,
    requestor: { id: job.requestorUserId, type: 'user', name: user?.userName, email: user?.email },
    created: adminTime(job.createdAt),
    last_modified: adminTime(job.completedAt ?? job.createdAt),
    ...(done ? { completed: adminTime(job.completedAt) } : {}),
    percent_completed: done ? 100 : 0,
    number_processed_accounts: processed,
    number_unprocessed_accounts: issues.length,
    results: done
      ? [
          {
            id: job.id,
            site_id: sandboxSite.siteId,
            number_processed_accounts: processed,
            number_unprocessed_accounts: issues.length,
            processing_issues_by_account: issues,
          },
        ]
      : [],
    success: done && issues.length === 0,
  };
}

/**
 * The Admin API's account settings export and import (OrganizationExport,
 * OrganizationImport): a CSV of the settings of some of the organisation's
 * accounts, and the same CSV sent back to change them. Both are bulk jobs.
 */
export const accountSettingsRoutes: FastifyPluginAsync<{ context: AdminContext }> = async (app, { context }) => {
  const { sandbox, jobs, settings } = context;

  jobs.perform('settings_export', (job) => {
    const ids = (job.request['accounts'] as Array<{ account_id: string }>).map((a) => a.account_id);
    const csv = settingsCsv(ids.map((accountId) => ({ accountId, settings: settings.of(accountId) })));
    return { result: { number_rows: csv.split('\n').length - 2 }, csv };
  });

  jobs.perform('settings_import', (job) => {
    const issues: Array<Record<string, string>> = [];
    let processed = 0;
    for (const { accountId, settings: values } of parseSettingsCsv(job.inputCsv ?? '')) {
      if (context.organizations.organizationOfAccount(accountId)?.organizationId !== job.organizationId) {
        issues.push({ account_id: accountId, error: 'account_not_in_organization', error_key: 'account_id' });
        continue;
      }
      settings.put(accountId, values);
      processed += 1;
    }
    return { result: { processed, issues }, csv: '' };
  });

  const jobOf = (organizationId: string, id: string, kind: BulkJobRecord['kind']) => {
    const job = jobs.job(id);
    if (!job || job.organizationId !== organizationId || job.kind !== kind) throw adminErrors.notFound(`Request ${id}`);
    return job;
  };

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/exports/account_settings',
    { config: { adminScope: 'account_read' } },
    async (request) =>
      startExport(context, request, {
        kind: 'settings_export',
        type: 'organization_account_settings_export',
        accountsRequired: true,
      }),
  );

  app.get<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/exports/account_settings',
    { config: { adminScope: 'account_read' } },
    async (request) => ({
      exports: jobs
        .ofOrganization(organizationOf(request).id, 'settings_export')
        .map((job) => exportWire(sandbox, context.origin(), job)),
    }),
  );

  app.get<{ Params: ExportParams }>(
    '/v2/organizations/:organizationId/exports/account_settings/:exportId',
    { config: { adminScope: 'account_read' } },
    async (request) =>
      exportWire(
        sandbox,
        context.origin(),
        jobOf(organizationOf(request).id, request.params.exportId, 'settings_export'),
      ),
  );

  app.delete<{ Params: ExportParams }>(
    '/v2/organizations/:organizationId/exports/account_settings/:exportId',
    { config: { adminScope: 'account_read' } },
    async (request) => {
      jobs.remove(jobOf(organizationOf(request).id, request.params.exportId, 'settings_export').id);
      return {};
    },
  );

  app.post<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/imports/account_settings',
    { config: { adminScope: 'account_write' } },
    async (request) => {
      const organization = organizationOf(request);
      const csv = uploadedCsv(request);
      parseSettingsCsv(csv); // refused now when unreadable, before it is queued
      const job = jobs.start(
        {
          organizationId: organization.id,
          kind: 'settings_import',
          type: 'organization_account_settings_import',
          request: {},
          inputCsv: csv,
          requestorUserId: callerOf(request).principal.user.id,
        },
        sandbox.clock.now(),
        context.workDelayMs,
      );
      return importWire(sandbox, job);
    },
  );

  app.get<{ Params: OrgParams }>(
    '/v2/organizations/:organizationId/imports/account_settings',
    { config: { adminScope: 'account_read' } },
    async (request) =>
      jobs.ofOrganization(organizationOf(request).id, 'settings_import').map((job) => importWire(sandbox, job)),
  );

  app.get<{ Params: ImportParams }>(
    '/v2/organizations/:organizationId/imports/account_settings/:importId',
    { config: { adminScope: 'account_read' } },
    async (request) =>
      importWire(sandbox, jobOf(organizationOf(request).id, request.params.importId, 'settings_import')),
  );

  app.delete<{ Params: ImportParams }>(
    '/v2/organizations/:organizationId/imports/account_settings/:importId',
    { config: { adminScope: 'account_write' } },
    async (request) => {
      jobs.remove(jobOf(organizationOf(request).id, request.params.importId, 'settings_import').id);
      return {};
    },
  );

  // The CSV of a finished export (the url of its results), any kind; the scope its listing needs.
  app.get<{ Params: ExportParams }>(
    '/v2/organizations/:organizationId/exports/:exportId/results.csv',
    async (request, reply) => {
      const job = jobs.job(request.params.exportId);
      if (
        !job ||
        job.organizationId !== organizationOf(request).id ||
        job.status !== 'completed' ||
        job.resultCsv === null
      )
        throw adminErrors.notFound(`Export ${request.params.exportId}`);
      const scope = job.kind === 'settings_export' ? 'account_read' : 'user_read';
      if (!callerOf(request).scopes.has(scope)) throw adminErrors.missingScope(scope);
      void reply.header('content-type', 'text/csv; charset=utf-8');
      return job.resultCsv;
    },
  );
};
