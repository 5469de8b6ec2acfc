import type { FastifyRequest } from 'fastify';
import { apiErrors } from '../../../platform/http/api-error.js';
import { JsonTooDeepError, parseJsonBody } from '../../../platform/http/json-body.js';
import { parseEnvelopeDefinition, type IncomingEnvelope } from './envelope-definition.js';
import { camelCaseKeys } from './camel-case-keys.js';

/**
 * Reads an envelope sent as multipart/form-data, as DocuSign accepts it: the
 * first part (or the one with a JSON content type) is the envelope
 * definition; each other part is a document's bytes, matched by its
 * `documentid` disposition parameter, else by a number in its name
 * (`document1`, `file2`), else by position. A large body is split on a
 * thread of the document pool, off the event loop (issue 36).
 */
export async function readMultipartEnvelope(request: FastifyRequest): Promise<IncomingEnvelope> {
  const body = request.body;
  if (!Buffer.isBuffer(body)) throw apiErrors.invalidBody('The multipart body could not be read.');
  const parts = await request.server.sandbox.documentWork.splitMultipart(body, request.headers['content-type'] ?? '');
  if (!parts || parts.length === 0)
    throw apiErrors.invalidBody('The multipart body is malformed (boundary not found).');
  const jsonIndex = Math.max(
    0,
    parts.findIndex((p) => (p.contentType ?? '').toLowerCase().includes('json')),
  );
  const definitionPart = parts[jsonIndex]!;
  let definition: unknown;
  try {
    // Read as a JSON body is (depth limit included), not with a bare JSON.parse.
    // Keys in DocuSign's case before the documents are read below (camel-case-keys.ts).
    definition = camelCaseKeys(parseJsonBody(definitionPart.body));
  } catch (error) {
    if (error instanceof JsonTooDeepError) throw apiErrors.invalidBody(error.message);
    throw apiErrors.invalidBody('The first multipart part must be the envelope definition as JSON.');
  }
  if (definition === undefined)
    throw apiErrors.invalidBody('The first multipart part must be the envelope definition as JSON.');
  const files = parts.filter((_, i) => i !== jsonIndex);
  const declared = Array.isArray((definition as { documents?: unknown })?.documents)
    ? (definition as { documents: Array<{ documentId?: unknown } | null> }).documents.map((d) => wireId(d?.documentId))
    : [];
  const byId = new Map<string, Buffer>();
  files.forEach((part, i) => {
    const explicit = part.disposition.get('documentid');
    const fromName = /(\d+)/.exec(part.disposition.get('name') ?? '')?.[1];
    const id = explicit ?? (fromName !== undefined && declared.includes(fromName) ? fromName : declared[i]);
    if (id) byId.set(id, part.body);
  });
  return parseEnvelopeDefinition(definition, byId);
}

/** DocuSign takes ids as strings or numbers; anything else matches no part (and the definition check refuses it). */
function wireId(value: unknown): string {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
