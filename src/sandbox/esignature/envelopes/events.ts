import { EventEmitter } from 'node:events';
import type { SandboxEventType } from './events-repository.js';

export type { SandboxEventType } from './events-repository.js';

/** What `services.events` emits (event name `'event'`), after the change is committed. */
export interface SandboxEvent {
  type: SandboxEventType;
  envelopeId: string;
  accountId: string;
  /** Present on recipient-* events. */
  recipientId?: string;
  /** ISO 8601 time of the change. */
  at: string;
}

/** A Connect delivery attempt, settled in the queue (delivered, or failed and rescheduled or given up). */
export interface ConnectAttemptEvent {
  id: number;
  event: string;
  ok: boolean;
  error?: string;
}

/**
 * The in-process emitter of envelope and recipient events (Connect
 * subscribes with `on('event', …)`), and of Connect's attempts
 * (`'connect-attempt'`: what a test awaits instead of polling).
 */
export class SandboxEvents extends EventEmitter<{ event: [SandboxEvent]; 'connect-attempt': [ConnectAttemptEvent] }> {}
