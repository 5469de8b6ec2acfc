import type { ConnectEventType } from './connect-message.js';

/**
 * Whether an envelope's `eventNotification` asks for an event. Swagger
 * `eventNotification.envelopeEvents[].envelopeEventStatusCode` (sent,
 * delivered, completed, declined, voided) and
 * `recipientEvents[].recipientEventStatusCode` (Sent, Delivered, Completed,
 * Declined …), compared case-insensitively. With neither list, every event
 * is sent; with only one list, only the events it names.
 */
export function wantsEvent(eventNotification: Record<string, unknown>, type: ConnectEventType): boolean {
  const envelopeCodes = codes(eventNotification['envelopeEvents'], 'envelopeEventStatusCode');
  const recipientCodes = codes(eventNotification['recipientEvents'], 'recipientEventStatusCode');
  if (envelopeCodes === undefined && recipientCodes === undefined) return true;
  const [scope, status] = type.split('-') as [string, string];
  const list = scope === 'envelope' ? envelopeCodes : recipientCodes;
  return list !== undefined && list.has(status);
}

function codes(value: unknown, field: string): Set<string> | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined;
  const out = new Set<string>();
  for (const item of value as unknown[]) {
    const code = typeof item === 'object' && item !== null ? (item as Record<string, unknown>)[field] : undefined;
    if (typeof code === 'string') out.add(code.toLowerCase());
  }
  return out;
}
