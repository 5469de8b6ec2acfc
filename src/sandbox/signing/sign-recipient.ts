import type { SandboxServices } from '../services.js';
import type { Actor } from '../esignature/envelopes/lifecycle.js';
import type { SealingKey } from '../esignature/document-work/document-tasks.js';
import type { SignaturePlace } from './signature-places.js';
import type { Tabs } from '../../envelope/index.js';
import { fillServiceTabs, valueTabsToDraw } from '../esignature/envelopes/tabs/tab-values.js';
import { everyoneActed } from '../esignature/envelopes/routing.js';

/** What signing needs. */
export interface SignRequest {
  envelopeId: string;
  recipientId: string;
  /** The adopted signature (typed name), already trimmed; non-empty when `places` are given. */
  signatureName: string;
  /** Where to stamp: the recipient's tabs, or the places the signer chose. */
  places: SignaturePlace[];
  /** The recipient's tabs with what they entered (default: the tabs as stored). */
  tabs?: Tabs;
  actor: Actor;
}

/**
 * Signs for one recipient: stamps the signature into every document it
 * touches (current versions, so earlier signers' stamps stay), and — when
 * this is the last signature the envelope waits for — seals every document
 * before handing the bytes to `lifecycle.markSigned`, so the envelope is
 * never `completed` with unsealed documents (a Connect receiver or a client
 * downloading on `envelope-completed` gets the sealed files).
 *
 * The stamping and the sealing run on the document pool (document-work/):
 * a document that takes long to load or grows large costs a thread, never
 * the event loop, and is refused at the pool's deadline or memory limit.
 *
 * Callers serialise calls per envelope (see EnvelopeLock). Throws the
 * lifecycle's LifecycleError (not in sequence, already signed …),
 * StampPageError (a place on a page the document lacks) and the pool's
 * FORMAT_CONVERSION_ERROR.
 */
export async function signRecipient(
  services: SandboxServices,
  sealingKey: () => SealingKey,
  request: SignRequest,
): Promise<{ completed: boolean }> {
  const { envelopes, blobs, clock } = services;
  const signedAt = new Date(clock.now());
  const documents = envelopes.documents(request.envelopeId);
  const all = envelopes.recipients(request.envelopeId);
  // Whether this completes the envelope: as the lifecycle will decide it (routing.ts), with this recipient done.
  const last = everyoneActed(
    all.map((r) => (r.recipientId === request.recipientId ? { ...r, status: 'completed' as const } : r)),
  );
  const recipient = all.find((r) => r.recipientId === request.recipientId);
  // The tabs' final values: what the recipient entered or was given, and what the service fills now.
  const tabs =
    recipient === undefined
      ? undefined
      : fillServiceTabs(request.tabs ?? recipient.tabs, {
          // An in-person signer's name is the person who signs in front of the host.
          name: recipient.details.signerName ?? recipient.name,
          email: recipient.details.signerEmail ?? recipient.email,
          envelopeId: request.envelopeId,
          signedAt,
        });

  const versions = new Map<string, Buffer>();
  for (const doc of documents) {
    const places = request.places.filter((p) => p.documentId === doc.documentId);
    const values =
      tabs === undefined
        ? []
        : valueTabsToDraw(tabs, doc.documentId, { signatureName: request.signatureName, signedAt });
    if (places.length === 0 && values.length === 0 && !last) continue;
    let bytes: Uint8Array = blobs.get(doc.sha256);
    if (places.length > 0 || values.length > 0) {
      bytes = await services.documentWork.stamp(
        bytes,
        places.map((p) => ({ ...p, name: request.signatureName, signedAt })),
        values,
      );
    }
    if (last) bytes = await services.documentWork.seal(bytes, sealingKey(), { signingTime: signedAt });
    versions.set(doc.documentId, Buffer.from(bytes));
  }
  services.lifecycle.markSigned(request.envelopeId, request.recipientId, {
    ...request.actor,
    documents: versions,
    ...(tabs === undefined ? {} : { tabs }),
  });
  return { completed: last };
}
