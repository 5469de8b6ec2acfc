import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { NewOutboxMessage } from '../../platform/outbox.js';
import { brandsStore, type BrandRecord } from './brands-store.js';

/**
 * DocuSign's brand email texts (`emailContent[].emailContentType`) that stand
 * for each kind of message the sandbox writes to its outbox.
 */
const contentTypeOfKind: Record<string, string> = {
  'envelope-notification': 'envelopeActivation',
  'envelope-completed': 'envelopeComplete',
  reminder: 'envelopeReminder',
  'expiration-warning': 'expiringEnvelope',
};

/**
 * Puts an envelope's brand on a message about it: the brand's company (or
 * name) first, then the brand's email text for that kind of message, then
 * the message as it was. Messages of an envelope without a brand, and of no
 * envelope (activation), are left as they are.
 */
export function brandedMessage(db: SandboxDatabase): (message: NewOutboxMessage) => NewOutboxMessage {
  return (message) => {
    if (message.envelopeId === undefined || message.envelopeId === null) return message;
    const brand = brandsStore(db).ofEnvelope(message.envelopeId);
    return brand === undefined ? message : { ...message, body: brandedBody(brand, message) };
  };
}

function brandedBody(brand: BrandRecord, message: NewOutboxMessage): string {
  const contentType = contentTypeOfKind[message.kind];
  const content = brand.emailContent.find((c) => c['emailContentType']?.toLowerCase() === contentType?.toLowerCase());
  const text = content?.['content'];
  const link =
    content?.['emailToLink'] !== undefined && content['emailToLink'] !== ''
      ? `${content['linkText'] ?? content['emailToLink']}: ${content['emailToLink']}`
      : undefined;
  return [brand.company ?? brand.name, text, message.body, link]
    .filter((p) => p !== undefined && p !== '')
    .join('\n\n');
}
