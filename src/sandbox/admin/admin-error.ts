import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from '../api-error.js';

/**
 * An error of DocuSign's Admin API, in its shape (`#/definitions/ErrorDetails`
 * of admin.rest.swagger-v2.1.json: `{ error, error_description }`), unlike
 * the eSignature API's `{ errorCode, message }`.
 */
export class AdminError extends Error {
  readonly statusCode: number;
  /** The Admin API's error code, e.g. `not_found`. */
  readonly error: string;

  constructor(statusCode: number, error: string, description: string) {
    super(description);
    this.name = 'AdminError';
    this.statusCode = statusCode;
    this.error = error;
  }
}

/** The Admin API's errors the sandbox answers (docs/sandbox.md, "The Admin API"). */
export const adminErrors = {
  unauthorized: (why: string) => new AdminError(401, 'unauthorized', why),
  /** The token was granted without the scope the route needs (the Swagger's `accessCode` of each operation). */
  missingScope: (scope: string) =>
    new AdminError(
      401,
      'unauthorized',
      `The access token lacks the scope ${scope}: ask for it in the JWT grant (scope=… ${scope}) after the user's consent to it.`,
    ),
  /** An organisation that does not exist or that the caller does not administer: the same answer, so ids are not probed. */
  unknownOrganization: (organizationId: string) =>
    new AdminError(
      404,
      'not_found',
      `Organization ${organizationId} was not found, or the user is not one of its administrators.`,
    ),
  accountNotInOrganization: (accountId: string) =>
    new AdminError(400, 'invalid_request', `Account ${accountId} is not an account of this organization.`),
  planItemNotInOrganization: (what: string) =>
    new AdminError(400, 'invalid_request', `The plan item ${what} is not one of this organization's plan items.`),
  invalidRequest: (detail: string) => new AdminError(400, 'invalid_request', detail),
  notFound: (what: string) => new AdminError(404, 'not_found', `${what} was not found.`),
} as const;

/** Answers every error of a /management route in the Admin API's shape; 5xx without internals. */
export function adminErrorHandler(
  error: FastifyError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
  log: ((line: string) => void) | undefined,
): void {
  const send = (status: number, code: string, description: string) => {
    request.apiErrorCode = code;
    void reply.status(status).send({ error: code, error_description: description });
  };
  if (error instanceof AdminError) return send(error.statusCode, error.error, error.message);
  // The eSignature authenticator's refusal (a token unknown or expired): the same cause, the Admin API's words.
  if (error instanceof ApiError)
    return send(
      error.statusCode,
      error.statusCode === 401
        ? 'unauthorized'
        : error.statusCode === 400
          ? 'invalid_request'
          : error.errorCode.toLowerCase(),
      error.message,
    );
  const fastifyError = error as FastifyError;
  if (fastifyError.validation) return send(400, 'invalid_request', `The request is not valid: ${error.message}`);
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return send(413, 'request_too_large', error.message);
  const status = fastifyError.statusCode;
  if (status !== undefined && status >= 400 && status < 500) return send(status, 'invalid_request', error.message);
  log?.(
    `internal error on ${request.method} ${request.routeOptions.url ?? '(no route)'}: ${error.stack ?? error.message}`,
  );
  return send(500, 'internal_server_error', 'An internal error occurred in the sandbox; it has been logged.');
}
