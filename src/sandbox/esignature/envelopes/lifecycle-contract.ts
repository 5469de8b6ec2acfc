import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import type { Clock } from '../../platform/clock.js';
import type { Outbox } from '../../platform/outbox.js';
import type { SandboxEvents } from './events.js';
import type { EnvelopesRepository, EnvelopeRecord, RecipientRecord } from './repository.js';
import type { EventsRepository, SandboxEventType } from './events-repository.js';

/** Who did something, for the certificate's audit trail. */
export interface Actor {
  ip?: string | null;
  userAgent?: string | null;
}

/** The service itself, acting on its own (sending to the next routing order): no IP, no browser. */
export const serviceActor: Actor = {};

/** Why a lifecycle step was refused. */
export type LifecycleRefusal = 'envelope-not-found' | 'recipient-not-found' | 'not-in-sequence' | 'invalid-state';

/** Thrown by lifecycle steps that do not apply (e.g. signing for a recipient whose turn has not come). */
export class LifecycleError extends Error {
  readonly reason: LifecycleRefusal;
  constructor(reason: LifecycleRefusal, message: string) {
    super(message);
    this.name = 'LifecycleError';
    this.reason = reason;
  }
}

/** What the lifecycle needs. */
export interface LifecycleDeps {
  db: SandboxDatabase;
  envelopes: EnvelopesRepository;
  eventsTable: EventsRepository;
  blobs: BlobStore;
  outbox: Outbox;
  clock: Clock;
  emitter: SandboxEvents;
  /** Links to put in a remote (non-embedded) recipient's notification; the signing plugin may provide them. */
  notificationLinks: () => (envelope: EnvelopeRecord, recipient: RecipientRecord) => string[];
  /** Fills a placeholder recipient of conditional routing whose turn has come (conditional-routing.ts). Default: nothing. */
  resolvePlaceholder?: (
    envelope: EnvelopeRecord,
    recipient: RecipientRecord,
    recipients: readonly RecipientRecord[],
  ) => void;
  /**
   * May this routing order be sent now (envelope-workflow.ts: scheduled
   * sending, delayed routing, pauses)? `firstSend`: nobody has been sent yet.
   * Default: always.
   */
  workflowGate?: (envelope: EnvelopeRecord, routingOrder: number, firstSend: boolean) => boolean;
}

/** Records one event inside a step: to the events table now, to the emitter after the commit. */
export type RecordEvent = (
  type: SandboxEventType,
  envelope: EnvelopeRecord,
  recipient: RecipientRecord | null,
  actor: Actor,
  details?: Record<string, unknown>,
) => void;
