import type { FastifyRequest } from 'fastify';
import { parseMultipart } from '../../wire/multipart.js';
import { adminErrors } from '../admin-error.js';

/**
 * The CSV a bulk import sends: DocuSign's clients send it as the
 * `file.csv` part of multipart/form-data (the Swagger's formData file),
 * or as the body itself (text/csv, application/octet-stream).
 */
export function uploadedCsv(request: FastifyRequest): string {
  const body = request.body;
  const type = request.headers['content-type'] ?? '';
  if (Buffer.isBuffer(body)) {
    if (/^multipart\//i.test(type)) {
      const parts = parseMultipart(body, type);
      const file = parts?.find((p) => p.disposition.has('filename')) ?? parts?.[0];
      if (!file) throw adminErrors.invalidRequest('Send the CSV as the file.csv part of multipart/form-data.');
      return file.body.toString('utf8');
    }
    return body.toString('utf8');
  }
  if (typeof body === 'string') return body;
  throw adminErrors.invalidRequest('Send the CSV as the file.csv part of multipart/form-data, or as a text/csv body.');
}
