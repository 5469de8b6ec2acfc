// The library API: what the CLI itself calls. Only re-exports.
export * from './errors/index.js';
export type * from './jobs/model.js';
export type * from './config/types.js';
export { loadJobs, jobSchema, jobLimits, type LoadJobsOptions } from './jobs/index.js';
export { loadConfig, configEnvironment, type LoadConfigOptions, type LoadConfigResult } from './config/index.js';
export { formatDiagnostics, type DiagnosticFormat, type FormatDiagnosticsOptions } from './cli/format-diagnostics.js';
export type { SandboxOptions, RunningSandbox } from './sandbox/contract.js';
export { startSandbox, buildSandboxApp, defaultSeedIds } from './sandbox/index.js';
export type { SandboxServices, SandboxEvent, Seed } from './sandbox/index.js';
export { verifyConnectSignature, connectSignature, connectSignatureHeader } from './envelope/connect-signature.js';
export { defaultConnectHmacKey } from './sandbox/esignature/connect/hmac-keys.js';
export type { ConnectMessage, ConnectEventType } from './sandbox/esignature/connect/connect-message.js';
export {
  EsignatureClient,
  AccountClient,
  ClientHttpError,
  ClientNetworkError,
  defaultRetryPolicy,
  classifyServiceError,
  serviceErrorCodeRules,
  type ServiceErrorClass,
  type EsignatureClientOptions,
  type Auth,
  type RetryPolicy,
  type RateLimitInfo,
  type ClientEvent,
} from './client/index.js';
export {
  OAuthSession,
  parseOAuthBase,
  consentUrl,
  type JwtGrantSettings,
  type OAuthBase,
  type DiscoveredAccount,
  type ApiVersion,
} from './client/index.js';
export {
  runJobs,
  planJobs,
  importTemplate,
  importAccount,
  run,
  PreflightError,
  resolveTarget,
  prepare,
  exitCodeOf,
  verdictOf,
  type RunVerdict,
  type RunOptions,
  type RunSummary,
  type RunEvent,
  type PlanJobsOptions,
  type ImportTemplateOptions,
  type ImportedTemplate,
  type ImportAccountOptions,
  type ImportedAccount,
  type Plan,
  type PlanItem,
  type EnvelopeDecision,
  type AccountDecision,
  type DocumentsWhen,
} from './runner/index.js';
export { OutputFolder, type FileRecord } from './output/index.js';
export {
  reportOf,
  reportSourceOf,
  writeReports,
  mergeReports,
  checkReport,
  type RunReport,
  type ReportSource,
} from './reporters/index.js';
export {
  identityOf,
  transactionIdOf,
  identityFieldName,
  digestFieldName,
  shardOf,
  inShard,
  parseShard,
  openJournal,
  readJournal,
  journalProgress,
  acquireStateLock,
  readStateLock,
  type Shard,
  type Journal,
  type JournalRecord,
  type StateLock,
} from './state/index.js';
