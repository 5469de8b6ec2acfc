import { describe, expect, it } from 'vitest';
import { stillToSignOf } from '../../src/reporters/still-to-sign.js';
import type { EnvelopeResult } from '../../src/runner/run-summary.js';

const sentAt = '2026-11-25T09:00:00.000Z';

function envelope(fields: Partial<EnvelopeResult>): EnvelopeResult {
  return {
    job: 'offers',
    key: 'ann',
    source: { file: 'jobs/offers.yaml', line: 3, column: 5 },
    outcome: 'succeeded',
    envelopeId: 'e1',
    status: 'sent',
    startedAt: sentAt,
    recipients: [
      { recipientId: '1', signing: 'ready', clientUserId: 'c1', name: 'Ann', routingOrder: '1' },
      { recipientId: '2', signing: 'remote', name: 'Bo (HR)', routingOrder: '2' },
    ],
    files: [],
    apiCalls: 4,
    retries: 0,
    ...fields,
  };
}

describe('still to sign, right after run (no sync yet)', () => {
  it('says a later routing order is not yet notified, and since when the first one was sent', () => {
    expect(stillToSignOf(envelope({})).map((r) => [r.name, r.status, r.since])).toEqual([
      ['Ann', 'sent', sentAt],
      ['Bo (HR)', 'created', undefined],
    ]);
  });

  it('does not date an envelope adopted from the service by this run’s start (it was sent before, when is unknown)', () => {
    const adopted = envelope({ adopted: true, startedAt: '2026-11-29T13:00:00.000Z' });
    expect(stillToSignOf(adopted).map((r) => [r.name, r.status, r.since])).toEqual([
      ['Ann', 'sent', undefined],
      ['Bo (HR)', 'created', undefined],
    ]);
  });

  it('takes what a sync recorded over what the routing suggests', () => {
    const synced = envelope({
      recipients: [
        { recipientId: '1', signing: 'finished', name: 'Ann', routingOrder: '1', status: 'completed' },
        {
          recipientId: '2',
          signing: 'remote',
          name: 'Bo (HR)',
          routingOrder: '2',
          status: 'delivered',
          statusAt: '2026-11-25T10:00:00.000Z',
        },
      ],
    });
    expect(stillToSignOf(synced).map((r) => [r.name, r.status, r.since])).toEqual([
      ['Bo (HR)', 'delivered', '2026-11-25T10:00:00.000Z'],
    ]);
  });

  it('a draft’s recipients are all not yet notified', () => {
    expect(stillToSignOf(envelope({ status: 'created' })).map((r) => r.status)).toEqual(['created', 'created']);
  });
});
