import { accountParams, envelopeParams, listEnvelopesQuery } from '../route-schemas.js';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { principalOf, envelopeOf, type AccountParams, type EnvelopeParams } from '../request-helpers.js';
import { requirePermission } from '../permission-profiles/permissions.js';
import { apiErrors } from '../../platform/http/api-error.js';
import { isoTime } from '../../platform/clock.js';
import { parseEnvelopeDefinition } from './wire/envelope-definition.js';
import { buildEnvelope } from './envelope-factory.js';
import { envelopeJson, customFieldsJson } from './wire/envelope-json.js';
import { lenientObject, lenientString } from '../../platform/http/lenient.js';
import { readMultipartEnvelope } from './wire/multipart-envelope.js';
import { LifecycleError } from './lifecycle.js';
import { brandsStore } from '../brands/brands-store.js';
import { conditionalRouting } from './conditional-routing.js';
import { envelopeWorkflows, workflowJson } from './workflow/envelope-workflow.js';
import { documentVisibility } from './documents/document-visibility.js';
import { brandNotFound } from '../brands/routes.js';
import { docGenIntake, generateBeforeSend, refuseUngeneratedSend } from './docgen/docgen-form-fields.js';

/** Query of the status-changes listing (Envelopes_GetEnvelopes). */
interface ListQuery {
  from_date?: string;
  to_date?: string;
  status?: string;
  envelope_ids?: string;
  transaction_ids?: string;
  custom_field?: string;
  start_position?: string;
  count?: string;
  include?: string;
}

function parseDate(value: string | undefined, name: string): number | undefined {
  if (value === undefined || value === '') return undefined;
  const ms = Date.parse(value);
  if (Number.isNaN(ms)) throw apiErrors.invalidParameter(`Query parameter '${name}' must be set to a valid DateTime.`);
  return ms;
}

function splitList(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined;
  const items = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length ? items : undefined;
}

function actorOf(request: FastifyRequest) {
  return { ip: request.ip, userAgent: request.headers['user-agent'] ?? null };
}

/** Envelopes: create (4.5), read, the status-changes listing, and update (void, send a draft). */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const envelopeRoutes: FastifyPluginAsync = async (app) => {
  // POST …/envelopes (Envelopes_PostEnvelopes → 201 #/definitions/envelopeSummary).
  app.post<{ Params: AccountParams }>(
    '/accounts/:accountId/envelopes',
    { schema: accountParams },
    async (request, reply) => {
      const { account, user } = principalOf(request);
      const { sandbox } = request.server;
      const incoming = (request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/')
        ? await readMultipartEnvelope(request)
        : parseEnvelopeDefinition(request.body);
      // A permission profile that may not send (allowEnvelopeSending "false") may still make drafts.
      if (incoming.status === 'sent') requirePermission(request, 'allowEnvelopeSending');
      // The brand is checked before anything is made, and recorded before the
      // creation commits: the messages sent at creation already show it.
      const brands = brandsStore(sandbox.db);
      const brand =
        incoming.brandId !== undefined ? brands.get(account.id, incoming.brandId) : brands.sendingDefault(account.id);
      if (incoming.brandId !== undefined && brand === undefined) throw brandNotFound();
      const built = await buildEnvelope(incoming, {
        accountId: account.id,
        userId: user.id,
        now: sandbox.clock.now(),
        blobs: sandbox.blobs,
        templates: sandbox.templates,
        docGen: docGenIntake(sandbox),
        work: sandbox.documentWork,
      });
      if (incoming.status === 'sent') refuseUngeneratedSend(sandbox, built.documents);
      if (brand !== undefined) brands.brandEnvelope(built.envelope.id, brand.id);
      if (incoming.conditionalRecipients.length > 0)
        conditionalRouting(sandbox.db).record(built.envelope.id, incoming.conditionalRecipients);
      if (incoming.workflow) envelopeWorkflows(sandbox.db).record(built.envelope.id, incoming.workflow);
      if (incoming.enforceSignerVisibility) documentVisibility(sandbox.db).enforce(built.envelope.id);
      const stored = await sandbox.lifecycle.createSoon(
        built.envelope,
        built.recipients,
        built.documents,
        built.customFields,
        actorOf(request),
      );
      void reply.status(201);
      return {
        envelopeId: stored.id,
        status: stored.status,
        statusDateTime: isoTime(stored.statusChangedAt),
        uri: `/envelopes/${stored.id}`,
      };
    },
  );

  // GET …/envelopes (Envelopes_GetEnvelopes → #/definitions/envelopesInformation).
  app.get<{ Params: AccountParams; Querystring: ListQuery }>(
    '/accounts/:accountId/envelopes',
    { schema: { ...accountParams, ...listEnvelopesQuery } },
    async (request) => {
      const { account } = principalOf(request);
      const q = request.query;
      const envelopeIds = splitList(q.envelope_ids)?.map((s) => s.toLowerCase());
      const transactionIds = splitList(q.transaction_ids);
      const fromDate = parseDate(q.from_date, 'from_date');
      if (fromDate === undefined && !envelopeIds && !transactionIds) {
        // DocuSign's own wording for this case.
        throw apiErrors.invalidParameter(
          "Query parameter 'from_date' must be set to a valid DateTime, or 'envelope_ids' or 'transaction_ids' must be specified.",
        );
      }
      let customField: { name: string; value: string } | undefined;
      if (q.custom_field !== undefined) {
        const at = q.custom_field.indexOf('=');
        if (at < 1) throw apiErrors.invalidParameter("Query parameter 'custom_field' must be name=value.");
        customField = { name: q.custom_field.slice(0, at), value: q.custom_field.slice(at + 1) };
      }
      const statuses = splitList(q.status)
        ?.map((s) => s.toLowerCase())
        .filter((s) => s !== 'any');
      const startPosition = q.start_position ? Number(q.start_position) : 0;
      const count = q.count ? Number(q.count) : 1000;
      if (!Number.isInteger(startPosition) || startPosition < 0)
        throw apiErrors.invalidParameter("'start_position' must be a whole number.");
      if (!Number.isInteger(count) || count < 1)
        throw apiErrors.invalidParameter("'count' must be a whole number of 1 or more.");
      const { sandbox } = request.server;
      const { total, envelopes } = sandbox.envelopes.list({
        accountId: account.id,
        fromDate,
        toDate: parseDate(q.to_date, 'to_date'),
        statuses: statuses?.length ? statuses : undefined,
        envelopeIds,
        transactionIds,
        customField,
        startPosition,
        count: Math.min(count, 1000),
      });
      // `include` (Swagger: custom_fields, documents, recipients…, and `tabs`, its own example
      // `tabs,recipients`): the recipients come with their tabs only when `tabs` is named too, as
      // DocuSign's do; sync reads the form data of completed envelopes from them (no call each).
      const include = splitList(q.include) ?? [];
      // One query for the page's custom fields (the runner's listings carry its identity fields), not one per envelope.
      const fields = sandbox.envelopes.customFieldsOfMany(envelopes.map((e) => e.id));
      return {
        envelopes: envelopes.map((e) =>
          envelopeJson(e, {
            customFields: fields.get(e.id) ?? [],
            ...(include.includes('recipients')
              ? { recipients: sandbox.envelopes.recipients(e.id), recipientTabs: include.includes('tabs') }
              : {}),
            ...(include.includes('documents') ? { documents: sandbox.envelopes.documents(e.id) } : {}),
          }),
        ),
        resultSetSize: String(envelopes.length),
        totalSetSize: String(total),
        startPosition: String(startPosition),
        endPosition: String(Math.max(startPosition + envelopes.length - 1, 0)),
        lastQueriedDateTime: isoTime(sandbox.clock.now()),
        ...(transactionIds
          ? {
              envelopeTransactionStatuses: envelopes
                .filter((e) => e.transactionId !== null)
                .map((e) => ({ envelopeId: e.id, transactionId: e.transactionId!, status: e.status })),
            }
          : {}),
      };
    },
  );

  // GET …/envelopes/{envelopeId} (Envelopes_GetEnvelope → #/definitions/envelope).
  app.get<{ Params: EnvelopeParams; Querystring: { include?: string } }>(
    '/accounts/:accountId/envelopes/:envelopeId',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const { sandbox } = request.server;
      const include = (request.query.include ?? '').split(',').map((s) => s.trim());
      const brand = brandsStore(sandbox.db).ofEnvelope(envelope.id);
      return {
        ...envelopeJson(envelope, {
          customFields: sandbox.envelopes.customFields(envelope.id),
          ...(include.includes('recipients')
            ? { recipients: sandbox.envelopes.recipients(envelope.id), recipientTabs: include.includes('tabs') }
            : {}),
          ...(include.includes('documents') ? { documents: sandbox.envelopes.documents(envelope.id) } : {}),
        }),
        // The brand it shows (its own brandId, or the sending default it was created with).
        ...(brand === undefined ? {} : { brandId: brand.id }),
      };
    },
  );

  // GET …/envelopes/{envelopeId}/custom_fields (#/definitions/customFieldsEnvelope): where customFieldsUri points.
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/custom_fields',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      return customFieldsJson(request.server.sandbox.envelopes.customFields(envelope.id));
    },
  );

  // POST …/envelopes/{envelopeId}/custom_fields (EnvelopeCustomFields_PostCustomFields, #/definitions/customFields):
  // adds text custom fields (the runner notes there which account a claim made, docs/exactly-once.md).
  app.post<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/custom_fields',
    { schema: envelopeParams },
    async (request, reply) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const body = lenientObject(request.body, 'customFields') ?? {};
      const text = body['textCustomFields'];
      if (!Array.isArray(text) || text.length === 0)
        throw apiErrors.invalidBody("'textCustomFields' must list the fields to add.");
      const fields = text.map((f: unknown, i) => {
        const field = lenientObject(f, `textCustomFields[${i}]`) ?? {};
        const name = lenientString(field['name'], 'name');
        if (!name) throw apiErrors.invalidBody(`textCustomFields[${i}].name is required.`);
        return {
          name,
          value: lenientString(field['value'], 'value') ?? '',
          show: lenientString(field['show'], 'show') ?? 'false',
        };
      });
      const { sandbox } = request.server;
      sandbox.envelopes.addCustomFields(envelope.id, fields);
      void reply.status(201);
      return customFieldsJson(sandbox.envelopes.customFields(envelope.id));
    },
  );

  // GET …/envelopes/{envelopeId}/workflow (EnvelopeWorkflowDefinition_GetEnvelopeWorkflowDefinition → #/definitions/workflow).
  app.get<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId/workflow',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      return workflowJson(envelopeWorkflows(request.server.sandbox.db).get(envelope.id));
    },
  );

  // PUT …/envelopes/{envelopeId} (Envelopes_PutEnvelope → #/definitions/envelopeUpdateSummary): void, or send a draft.
  app.put<{ Params: EnvelopeParams }>(
    '/accounts/:accountId/envelopes/:envelopeId',
    { schema: envelopeParams },
    async (request) => {
      const envelope = envelopeOf(request, request.params.envelopeId);
      const body = lenientObject(request.body, 'envelope') ?? {};
      const status = lenientString(body['status'], 'status')?.toLowerCase();
      const { lifecycle, db, clock } = request.server.sandbox;
      // eg033: `workflow.workflowStatus: in_progress` lifts a pause (with ?resend_envelope=true, as the example sends it).
      const workflowStatus = lenientString(
        lenientObject(body['workflow'], 'workflow')?.['workflowStatus'],
        'workflow.workflowStatus',
      )?.toLowerCase();
      if (workflowStatus !== undefined && workflowStatus !== 'in_progress' && workflowStatus !== 'paused')
        throw apiErrors.invalidParameter("Value for 'workflow.workflowStatus' must be 'in_progress' or 'paused'.");
      if (workflowStatus === 'in_progress' && envelopeWorkflows(db).unpause(envelope.id, clock.now()))
        lifecycle.resume(envelope.id);
      try {
        if (status === 'voided') {
          const reason = lenientString(body['voidedReason'], 'voidedReason');
          if (!reason)
            throw apiErrors.invalidParameter("Value for 'voidedReason' must be specified when voiding an envelope.");
          lifecycle.void(envelope.id, reason, actorOf(request));
        } else if (status === 'sent') {
          requirePermission(request, 'allowEnvelopeSending');
          // A DocGen letter whose values were kept only (update_docgen_formfields_only) is generated now.
          if (envelope.status === 'created') await generateBeforeSend(request.server.sandbox, envelope.id);
          lifecycle.send(envelope.id, actorOf(request));
        } else if (status !== undefined) {
          throw apiErrors.invalidParameter("Value for 'status' must be 'created', 'sent' or 'voided'.");
        }
      } catch (error) {
        if (error instanceof LifecycleError) throw apiErrors.invalidStatus(error.message);
        throw error;
      }
      return { envelopeId: envelope.id };
    },
  );
};
