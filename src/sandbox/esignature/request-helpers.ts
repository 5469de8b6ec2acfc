import type { FastifyRequest } from 'fastify';
import type { Principal } from './authentication/authenticate.js';
import { apiErrors } from '../platform/http/api-error.js';
import type { EnvelopeRecord } from './envelopes/repository.js';
import { publicOrigin } from '../platform/http/public-origin.js';

/** The caller of an authenticated route (set by the API plugin's preHandler). */
export function principalOf(request: FastifyRequest): Principal {
  if (!request.principal) throw apiErrors.authenticationFailed();
  return request.principal;
}

/** The origin the service's addresses start with: from configuration, never from the request (public-origin.ts). */
export function originOf(request: FastifyRequest): string {
  return publicOrigin(request.server);
}

/** The account-scoped base of the API, as the client called it (v2 or v2.1). */
export function apiBaseOf(request: FastifyRequest): string {
  const version = request.url.startsWith('/restapi/v2.1/') ? 'v2.1' : 'v2';
  return `${originOf(request)}/restapi/${version}`;
}

/** An envelope of the caller's account; ENVELOPE_DOES_NOT_EXIST for a missing or foreign one alike. */
export function envelopeOf(request: FastifyRequest, envelopeId: string): EnvelopeRecord {
  const principal = principalOf(request);
  const envelope = request.server.sandbox.envelopes.get(principal.account.id, envelopeId.toLowerCase());
  if (!envelope) throw apiErrors.envelopeNotFound();
  return envelope;
}

/** Route params of account-scoped paths. */
export interface AccountParams {
  accountId: string;
}
export interface EnvelopeParams extends AccountParams {
  envelopeId: string;
}
