import { describe, expect, it } from 'vitest';
import {
  envelopeStatuses,
  isSettledEnvelope,
  isStillToAct,
  recipientHasActed,
  recipientStatuses,
} from '../../src/envelope/statuses.js';

describe('envelope statuses', () => {
  it('counts completed, declined and voided as settled, in any case, and nothing else', () => {
    const settled = envelopeStatuses.filter((s) => isSettledEnvelope(s));
    expect(settled).toEqual(['completed', 'declined', 'voided']);
    expect(isSettledEnvelope('Completed')).toBe(true);
    expect(isSettledEnvelope(undefined)).toBe(false);
  });

  it('says a recipient has acted once signed or declined; a bounced or unknown one is still to act', () => {
    const acted = recipientStatuses.filter((s) => recipientHasActed(s));
    expect(acted).toEqual(['signed', 'completed', 'declined']);
    expect(isStillToAct('autoresponded')).toBe(true);
    expect(isStillToAct(undefined)).toBe(true);
    expect(isStillToAct('Declined')).toBe(false);
  });
});
