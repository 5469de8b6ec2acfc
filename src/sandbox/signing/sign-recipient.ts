import type { SandboxServices } from '../services.js';
import type { Actor } from '../lifecycle.js';
import type { PdfSealer } from '../seal/seal-pdf.js';
import { stampSignatures } from '../stamp/stamp-signatures.js';
import type { SignaturePlace } from './signature-places.js';

/** What signing needs. */
export interface SignRequest {
  envelopeId: string;
  recipientId: string;
  /** The adopted signature (typed name), already trimmed and non-empty. */
  signatureName: string;
  /** Where to stamp: the recipient's tabs, or the places the signer chose. */
  places: SignaturePlace[];
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
 * Callers serialise calls per envelope (see EnvelopeLock). Throws the
 * lifecycle's LifecycleError (not in sequence, already signed …) and
 * StampPageError (a place on a page the document lacks).
 */
export async function signRecipient(
  services: SandboxServices,
  seal: PdfSealer,
  request: SignRequest,
): Promise<{ completed: boolean }> {
  const { envelopes, blobs, clock } = services;
  const signedAt = new Date(clock.now());
  const documents = envelopes.documents(request.envelopeId);
  const others = envelopes.recipients(request.envelopeId).filter((r) => r.recipientId !== request.recipientId);
  const last = others.every((r) => r.status === 'completed');

  const versions = new Map<string, Buffer>();
  for (const doc of documents) {
    const places = request.places.filter((p) => p.documentId === doc.documentId);
    if (places.length === 0 && !last) continue;
    let bytes: Uint8Array = blobs.get(doc.sha256);
    if (places.length > 0) {
      bytes = await stampSignatures(
        bytes,
        places.map((p) => ({ ...p, name: request.signatureName, signedAt })),
      );
    }
    if (last) bytes = await seal(bytes, { signingTime: signedAt });
    versions.set(doc.documentId, Buffer.from(bytes));
  }
  services.lifecycle.markSigned(request.envelopeId, request.recipientId, { ...request.actor, documents: versions });
  return { completed: last };
}
