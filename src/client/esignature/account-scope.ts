import type { ApiRequest, ApiResponse } from '../api-request.js';
import type { ApiVersion } from '../api-version.js';
import type { CallOptions, DownloadOptions, DownloadSink, WrittenFile } from '../call-options.js';
import { ClientBadResponseError } from '../client-errors.js';
import { pathOf } from '../redact.js';

/** The one pipeline every call goes through (EsignatureClient is it): a request, or a checked download. */
export interface Transport {
  readonly rootUrl: string;
  readonly apiVersion: ApiVersion;
  request(request: Omit<ApiRequest, 'auth'>, options?: CallOptions): Promise<ApiResponse>;
  download<T extends WrittenFile>(
    url: string,
    operation: string,
    sink: DownloadSink<T>,
    options?: DownloadOptions,
  ): Promise<T>;
}

/** What an API group's calls need of the account they run in (AccountClient is one). */
export interface AccountScope {
  /** `…/restapi/v2.1/accounts/{accountId}`, from the login. */
  readonly baseUrl: string;
  readonly client: Transport;
}

/** A call whose answer must be a JSON object: a bad answer is a {@link ClientBadResponseError}, not a crash later. */
export async function answerJson<T>(
  transport: Transport,
  request: Omit<ApiRequest, 'auth'>,
  options: CallOptions,
): Promise<T> {
  const response = await transport.request(request, options);
  if (response.json === undefined || response.json === null || typeof response.json !== 'object') {
    throw new ClientBadResponseError(
      { method: request.method, path: pathOf(request.url), operation: request.operation },
      'the answer has no JSON body',
    );
  }
  return response.json as T;
}

/** The `field` of an answer, which must be a string: its absence is a {@link ClientBadResponseError} naming it. */
export function requiredString(
  answer: object,
  field: string,
  request: Pick<ApiRequest, 'method' | 'url' | 'operation'>,
): string {
  const value = (answer as Record<string, unknown>)[field];
  if (typeof value !== 'string')
    throw new ClientBadResponseError(
      { method: request.method, path: pathOf(request.url), operation: request.operation },
      `no ${field} in the answer`,
    );
  return value;
}
