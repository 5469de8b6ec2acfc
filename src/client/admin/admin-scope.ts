import { randomUUID } from 'node:crypto';
import type { CallOptions } from '../call-options.js';
import type { EsignatureClient } from '../esignature-client.js';

/**
 * What an Admin API group's calls need of the organisation they run in
 * (AdminClient is one): the pipeline and credentials that carry them, and the
 * organisation's addresses, `…/management/v2/organizations/{organizationId}`
 * and its v2.1 twin.
 */
export interface AdminScope {
  readonly http: Pick<EsignatureClient, 'request'>;
  readonly org: string;
  readonly org21: string;
}

export const enc = encodeURIComponent;

/** A JSON answer. */
export async function adminJson<T>(
  scope: AdminScope,
  method: 'GET' | 'POST' | 'PUT' | 'DELETE',
  url: string,
  operation: string,
  options: CallOptions,
  body?: unknown,
  idempotent?: boolean,
): Promise<T> {
  const response = await scope.http.request(
    {
      method,
      url,
      operation,
      ...(body === undefined ? {} : { body }),
      ...(idempotent === undefined ? {} : { idempotent }),
    },
    options,
  );
  return response.json as T;
}

/** A CSV sent as the `file.csv` part of a multipart form, as DocuSign's imports take it. Never repeated. */
export async function adminUpload<T>(
  scope: AdminScope,
  url: string,
  operation: string,
  csv: string,
  options: CallOptions,
): Promise<T> {
  const boundary = `signrun-${randomUUID()}`;
  const data = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file.csv"; filename="file.csv"\r\nContent-Type: text/csv\r\n\r\n${csv}\r\n--${boundary}--\r\n`,
    'utf8',
  );
  const response = await scope.http.request(
    {
      method: 'POST',
      url,
      bytes: { data, contentType: `multipart/form-data; boundary=${boundary}` },
      operation,
      idempotent: false,
    },
    options,
  );
  return response.json as T;
}

/** A text answer (CSV). */
export async function adminText(
  scope: AdminScope,
  url: string,
  operation: string,
  options: CallOptions,
): Promise<string> {
  const response = await scope.http.request({ method: 'GET', url, operation, responseType: 'stream' }, options);
  const chunks: Buffer[] = [];
  for await (const chunk of response.stream ?? []) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks).toString('utf8');
}
