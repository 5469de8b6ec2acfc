import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { principalOf, type AccountParams } from '../request-helpers.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import { isoTime } from '../../platform/clock.js';
import { lenientArray, lenientObject, lenientString } from '../../platform/http/lenient.js';
import type { UserRecord } from '../accounts/repository.js';
import {
  authorizationPermissions,
  inForce,
  userAuthorizations,
  type AuthorizationPermission,
  type UserAuthorizationRecord,
} from './repository.js';

interface UserParams extends AccountParams {
  userId: string;
}

const userParams = {
  params: {
    type: 'object',
    required: ['accountId', 'userId'],
    properties: { accountId: { type: 'string' }, userId: { type: 'string', maxLength: 64 } },
  },
} as const;
const authorizationParams = {
  params: {
    type: 'object',
    required: ['accountId', 'userId', 'authorizationId'],
    properties: {
      accountId: { type: 'string' },
      userId: { type: 'string', maxLength: 64 },
      authorizationId: { type: 'string', maxLength: 64 },
    },
  },
} as const;

const userNotFound = () => new ApiError(400, 'USER_NOT_FOUND', 'The user specified was not found in this account.');
const authorizationNotFound = () =>
  new ApiError(400, 'AUTHORIZATION_NOT_FOUND', 'The authorization specified was not found.');
const notYours = () =>
  new ApiError(
    400,
    'USER_LACKS_PERMISSIONS',
    "This user lacks sufficient permissions to manage another user's shared access.",
  );

/**
 * Shared access (Accounts: UserAuthorizations, in DocuSign's API reference and
 * the SDKs; the Swagger of this repository predates it): a principal user lets
 * an agent user of the same account act for them — `send`, `manage`, `sign`
 * or `edit` — from `startDate` to `endDate`. The agent then calls with
 * `X-DocuSign-Act-On-Behalf: <principal's userId>` (auth/act-on-behalf.ts).
 *
 * Only the principal manages their grants (the sandbox has no administrator
 * role yet); the agent may read the grants made to them.
 */
// eslint-disable-next-line max-lines-per-function -- one fastify plugin per API group, as the sandbox is organised: its routes one after another, each handler short; the length is the group's list of endpoints. Splitting a group into a plugin per resource is the next step (issue 33).
export const userAuthorizationRoutes: FastifyPluginAsync = async (app) => {
  const store = () => userAuthorizations(app.sandbox.db);
  const userOf = (request: FastifyRequest, userId: string): UserRecord => {
    const user = app.sandbox.accounts.user(userId.toLowerCase());
    if (!user || user.accountId !== principalOf(request).account.id) throw userNotFound();
    return user;
  };
  /** The path's user, who must be the caller: one manages one's own shared access. */
  const selfOf = (request: FastifyRequest<{ Params: UserParams }>): UserRecord => {
    const user = userOf(request, request.params.userId);
    if (user.id !== principalOf(request).user.id) throw notYours();
    return user;
  };
  const json = (a: UserAuthorizationRecord) =>
    authorizationJson(app.sandbox.accounts.user.bind(app.sandbox.accounts), a);
  const listJson = (items: UserAuthorizationRecord[]) => ({
    authorizations: items.map(json),
    resultSetSize: String(items.length),
    totalSetSize: String(items.length),
    startPosition: '0',
    endPosition: String(Math.max(items.length - 1, 0)),
  });
  const filtered = (items: UserAuthorizationRecord[], query: ListQuery) => {
    const now = app.sandbox.clock.now();
    const permissions = query.permissions
      ?.split(',')
      .map((p) => p.trim().toLowerCase())
      .filter(Boolean);
    return items.filter(
      (a) =>
        (permissions === undefined || permissions.length === 0 || permissions.includes(a.permission)) &&
        (query.active_only !== 'true' || inForce(a, now)),
    );
  };

  /** Creates a grant from a userAuthorizationCreateRequest; an identical grant in force is answered instead. */
  const grant = (request: FastifyRequest<{ Params: UserParams }>, body: unknown): UserAuthorizationRecord => {
    const principal = selfOf(request);
    const b = lenientObject(body, 'userAuthorizationCreateRequest');
    if (!b) throw apiErrors.invalidBody('Send a userAuthorizationCreateRequest as JSON.');
    const agentRef = lenientObject(b['agentUser'], 'agentUser');
    const agentId = lenientString(agentRef?.['userId'], 'agentUser.userId');
    if (!agentId) throw apiErrors.invalidBody("'agentUser.userId' names the agent.");
    const agentAccount = lenientString(agentRef?.['accountId'], 'agentUser.accountId');
    if (agentAccount !== undefined && agentAccount.toLowerCase() !== principal.accountId) throw userNotFound();
    const agent = userOf(request, agentId);
    if (agent.id === principal.id) throw apiErrors.invalidBody('A user cannot share access with themselves.');
    const permission = lenientString(b['permission'], 'permission')?.toLowerCase();
    if (!authorizationPermissions.includes(permission as AuthorizationPermission))
      throw apiErrors.invalidBody(`'permission' must be one of ${authorizationPermissions.join(', ')}.`);
    const now = app.sandbox.clock.now();
    const startAt = dateOf(b['startDate'], 'startDate') ?? now;
    const endAt = dateOf(b['endDate'], 'endDate') ?? null;
    if (endAt !== null && endAt <= startAt) throw apiErrors.invalidBody("'endDate' must come after 'startDate'.");
    const same = store()
      .ofPrincipal(principal.id)
      .find((a) => a.agentUserId === agent.id && a.permission === permission && inForce(a, now));
    if (same) return same;
    return store().create({
      accountId: principal.accountId,
      principalUserId: principal.id,
      agentUserId: agent.id,
      permission: permission as AuthorizationPermission,
      startAt,
      endAt,
      createdAt: now,
      createdBy: principal.id,
    });
  };
  const ownAuthorization = (request: FastifyRequest<{ Params: UserParams & { authorizationId: string } }>) => {
    const principal = selfOf(request);
    const a = store().get(request.params.authorizationId);
    if (!a || a.principalUserId !== principal.id) throw authorizationNotFound();
    return a;
  };

  // POST …/users/{userId}/authorization (createUserAuthorization → 201 UserAuthorization).
  app.post<{ Params: UserParams }>(
    '/accounts/:accountId/users/:userId/authorization',
    { schema: userParams },
    async (request, reply) => {
      const created = grant(request, request.body);
      void reply.status(201);
      return json(created);
    },
  );

  // GET …/users/{userId}/authorization/{authorizationId} (getUserAuthorization → UserAuthorization).
  app.get<{ Params: UserParams & { authorizationId: string } }>(
    '/accounts/:accountId/users/:userId/authorization/:authorizationId',
    { schema: authorizationParams },
    async (request) => json(ownAuthorization(request)),
  );

  // PUT …/users/{userId}/authorization/{authorizationId} (updateUserAuthorization: its dates → UserAuthorization).
  app.put<{ Params: UserParams & { authorizationId: string } }>(
    '/accounts/:accountId/users/:userId/authorization/:authorizationId',
    { schema: authorizationParams },
    async (request) => {
      const a = ownAuthorization(request);
      const b = lenientObject(request.body, 'userAuthorizationUpdateRequest') ?? {};
      const startAt = dateOf(b['startDate'], 'startDate') ?? a.startAt;
      const endAt = b['endDate'] === undefined ? a.endAt : (dateOf(b['endDate'], 'endDate') ?? null);
      if (endAt !== null && endAt <= startAt) throw apiErrors.invalidBody("'endDate' must come after 'startDate'.");
      store().setDates(a.id, startAt, endAt, app.sandbox.clock.now(), principalOf(request).user.id);
      return json(store().get(a.id)!);
    },
  );

  // DELETE …/users/{userId}/authorization/{authorizationId} (deleteUserAuthorization → 200).
  app.delete<{ Params: UserParams & { authorizationId: string } }>(
    '/accounts/:accountId/users/:userId/authorization/:authorizationId',
    { schema: authorizationParams },
    async (request, reply) => {
      store().delete(ownAuthorization(request).id, app.sandbox.clock.now());
      return reply.status(200).send();
    },
  );

  // GET …/users/{userId}/authorizations (getPrincipalUserAuthorizations → UserAuthorizations).
  app.get<{ Params: UserParams; Querystring: ListQuery }>(
    '/accounts/:accountId/users/:userId/authorizations',
    { schema: userParams },
    async (request) => listJson(filtered(store().ofPrincipal(selfOf(request).id), request.query)),
  );

  // GET …/users/{userId}/authorizations/agent (getAgentUserAuthorizations): the grants made to the
  // agent, read by the agent or by a principal who granted one (eg043 asks as the principal).
  app.get<{ Params: UserParams; Querystring: ListQuery }>(
    '/accounts/:accountId/users/:userId/authorizations/agent',
    { schema: userParams },
    async (request) => {
      const agent = userOf(request, request.params.userId);
      const caller = principalOf(request).user.id;
      const visible = store()
        .ofAgent(agent.id)
        .filter((a) => caller === agent.id || a.principalUserId === caller);
      return listJson(filtered(visible, request.query));
    },
  );

  // POST …/users/{userId}/authorizations (createOrUpdateUserAuthorizations → UserAuthorizationsResponse).
  app.post<{ Params: UserParams }>(
    '/accounts/:accountId/users/:userId/authorizations',
    { schema: userParams },
    async (request) => {
      selfOf(request);
      const items =
        lenientArray(lenientObject(request.body, 'userAuthorizationsRequest')?.['authorizations'], 'authorizations') ??
        [];
      return {
        results: items.map((item) => {
          try {
            return { authorization: json(grant(request, item)), success: 'true' };
          } catch (error) {
            if (!(error instanceof ApiError)) throw error;
            return { errorMessage: error.errorCode, success: 'false' };
          }
        }),
      };
    },
  );

  // DELETE …/users/{userId}/authorizations (deleteUserAuthorizations, body { authorizations: [ids] } → UserAuthorizationsDeleteResponse).
  app.delete<{ Params: UserParams }>(
    '/accounts/:accountId/users/:userId/authorizations',
    { schema: userParams },
    async (request) => {
      const principal = selfOf(request);
      const ids =
        lenientArray(
          lenientObject(request.body, 'userAuthorizationsDeleteRequest')?.['authorizations'],
          'authorizations',
        ) ?? [];
      const now = app.sandbox.clock.now();
      return {
        results: ids.map((raw, i) => {
          const id = lenientString(raw, `authorizations[${i}]`) ?? '';
          const a = store().get(id);
          const deleted = a !== undefined && a.principalUserId === principal.id && store().delete(a.id, now);
          return deleted
            ? { authorizationId: id, success: 'true' }
            : { authorizationId: id, success: 'false', errorMessage: 'AUTHORIZATION_NOT_FOUND' };
        }),
      };
    },
  );
};

interface ListQuery {
  permissions?: string;
  active_only?: string;
}

function dateOf(value: unknown, field: string): number | undefined {
  const text = lenientString(value, field);
  if (text === undefined || text === '') return undefined;
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw apiErrors.invalidBody(`'${field}' must be a date.`);
  return ms;
}

/** A grant as DocuSign's UserAuthorization model has it. */
function authorizationJson(
  userOf: (id: string) => UserRecord | undefined,
  a: UserAuthorizationRecord,
): Record<string, unknown> {
  const person = (id: string) => {
    const u = userOf(id);
    return { userId: id, accountId: a.accountId, ...(u ? { email: u.email, name: u.userName } : {}) };
  };
  return {
    authorizationId: a.id,
    principalUser: person(a.principalUserId),
    agentUser: person(a.agentUserId),
    permission: a.permission,
    startDate: isoTime(a.startAt),
    ...(a.endAt === null ? {} : { endDate: isoTime(a.endAt) }),
    created: isoTime(a.createdAt),
    createdBy: a.createdBy,
    modified: isoTime(a.modifiedAt),
    modifiedBy: a.modifiedBy,
  };
}
