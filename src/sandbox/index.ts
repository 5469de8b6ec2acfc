// The sandbox's public surface: only re-exports.
export { startSandbox } from './server.js';
export { buildSandboxApp } from './app.js';
export type { SandboxOptions, RunningSandbox } from './contract.js';
export type { SandboxServices, SandboxConfig, ServicesOverrides } from './services.js';
export type { SandboxEvent, SandboxEventType } from './events.js';
export type { Lifecycle, Actor, LifecycleRefusal } from './lifecycle.js';
export { LifecycleError } from './lifecycle.js';
export type { ViewTokenResult, ViewTokenGrant, ViewTokenRefusal } from './repositories/view-tokens.js';
export type { Outbox, OutboxMessage, NewOutboxMessage } from './outbox.js';
export type {
  EnvelopeRecord,
  RecipientRecord,
  DocumentRecord,
  EnvelopeStatus,
  RecipientStatus,
} from './repositories/envelopes.js';
export type { Seed } from './seed/seed-types.js';
export { defaultSeed, defaultSeedIds } from './seed/default-seed.js';
export { ApiError } from './api-error.js';
export type { ApiLimiter, LimitDecision } from './limits/api-limiter.js';
export type { Clock } from './clock.js';
