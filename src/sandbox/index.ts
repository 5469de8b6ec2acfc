// The sandbox's public surface: only re-exports.
export { startSandbox } from './server.js';
export { buildSandboxApp } from './app.js';
export type { SandboxOptions, RunningSandbox } from './contract.js';
export type { SandboxServices, SandboxConfig, ServicesOverrides } from './services.js';
export type { SandboxEvent, SandboxEventType } from './esignature/envelopes/events.js';
export type { Lifecycle, Actor, LifecycleRefusal } from './esignature/envelopes/lifecycle.js';
export { LifecycleError } from './esignature/envelopes/lifecycle.js';
export type { ViewTokenResult, ViewTokenGrant, ViewTokenRefusal } from './esignature/authentication/view-tokens.js';
export type { Outbox, OutboxMessage, NewOutboxMessage } from './platform/outbox.js';
export type {
  EnvelopeRecord,
  RecipientRecord,
  DocumentRecord,
  EnvelopeStatus,
  RecipientStatus,
} from './esignature/envelopes/repository.js';
export type { Seed } from './seed/seed-types.js';
export { defaultSeed, defaultSeedIds } from './seed/default-seed.js';
export { ApiError } from './platform/http/api-error.js';
export type { ApiLimiter, LimitDecision } from './platform/limits/api-limiter.js';
export type { Clock } from './platform/clock.js';
