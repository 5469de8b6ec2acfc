export {
  EsignatureClient,
  AccountClient,
  type EsignatureClientOptions,
  type CallOptions,
  type WrittenFile,
  type DownloadSink,
  type EnvelopeListQuery,
  pageCountOf,
  newAccountDefinitionV21,
} from './esignature-client.js';
export { authHeaders, secretHeaderNames, legacyAuthWarning, type Auth } from './auth.js';
export { withAccessToken } from './with-access-token.js';
export { apiVersions, versionOfRoot, inVersion, apiRootOf, type ApiVersion } from './api-version.js';
export * from './oauth/index.js';
export type { ApiRequest, ApiResponse, ClientEvent, Send } from './api-request.js';
export {
  ClientHttpError,
  ClientNetworkError,
  ClientBadResponseError,
  mayHaveActed,
  type FailedRequest,
} from './client-errors.js';
export { createFetchOnce, type FetchOnceOptions } from './fetch-once.js';
export { withRetry, shouldRetry } from './with-retry.js';
export { withThrottle, type RateLimitState } from './with-throttle.js';
export { AttemptBudget, defaultRetryPolicy, retryDelay, type RetryPolicy } from './retry-policy.js';
export { parseRetryAfter, parseRateLimitReset } from './retry-after.js';
export { readRateLimit, type RateLimitInfo } from './rate-limit.js';
export { redactText, pathOf } from './redact.js';
export { realTiming, type Timing } from './timing.js';
export type * from './wire-types.js';
export type * from '../envelope/wire.js';
export {
  classifyServiceError,
  serviceErrorCodeRules,
  type ServiceErrorClass,
  type ServiceErrorRule,
  type ServiceFailure,
  type ServiceErrorVerdict,
} from './service-error-classes.js';
export { readArchive, type ArchiveEntry, type ArchiveBudget } from './archive-entries.js';
