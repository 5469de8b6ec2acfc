import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError } from './api-error.js';
import { formBodyLimitBytes, isFormContentType } from './form-body.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The DocuSign errorCode answered, for the request log; null on success. */
    apiErrorCode: string | null;
  }
}

/**
 * Answers every error in DocuSign's shape `{ errorCode, message }`
 * (#/definitions/errorDetails). 5xx answers never reveal internals: the
 * error goes to the log, the client gets a generic message.
 */
export function sandboxErrorHandler(
  error: FastifyError | ApiError | Error,
  request: FastifyRequest,
  reply: FastifyReply,
  log: ((line: string) => void) | undefined = undefined,
): void {
  if (error instanceof ApiError) {
    request.apiErrorCode = error.errorCode;
    void reply.status(error.statusCode).send({ errorCode: error.errorCode, message: error.message });
    return;
  }
  const code = (error as FastifyError).code;
  const status = (error as FastifyError).statusCode;
  if (code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    request.apiErrorCode = 'REQUEST_ENTITY_TOO_LARGE';
    const form = isFormContentType(request.headers['content-type']);
    void reply.status(413).send({
      errorCode: 'REQUEST_ENTITY_TOO_LARGE',
      message: form
        ? `A form body is limited to ${formBodyLimitBytes} bytes; this one is larger.`
        : `The request body is larger than the sandbox accepts (${request.server.sandbox.config.bodyLimitBytes} bytes). Send large documents as multipart/form-data parts, or start the sandbox with a larger limit.`,
    });
    return;
  }
  if ((error as FastifyError).validation) {
    request.apiErrorCode = 'INVALID_REQUEST_PARAMETER';
    void reply.status(400).send({
      errorCode: 'INVALID_REQUEST_PARAMETER',
      message: `The request contained at least one invalid parameter. ${error.message}`,
    });
    return;
  }
  if (code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    request.apiErrorCode = 'INVALID_CONTENT_TYPE';
    void reply.status(415).send({
      errorCode: 'INVALID_CONTENT_TYPE',
      message: 'Content type not supported: send application/json or multipart/form-data.',
    });
    return;
  }
  if (status !== undefined && status >= 400 && status < 500) {
    request.apiErrorCode = 'INVALID_REQUEST_BODY';
    void reply.status(status).send({
      errorCode: 'INVALID_REQUEST_BODY',
      message: `The request body is missing or improperly formatted. ${error.message}`,
    });
    return;
  }
  // The operator's log gets the detail (route pattern, not the URL: it may hold a token); the client gets none.
  request.apiErrorCode = 'UNSPECIFIED_ERROR';
  log?.(
    `internal error on ${request.method} ${request.routeOptions.url ?? '(no route)'}: ${error.stack ?? error.message}`,
  );
  void reply.status(500).send({
    errorCode: 'UNSPECIFIED_ERROR',
    message: 'An internal error occurred in the sandbox; it has been logged.',
  });
}
