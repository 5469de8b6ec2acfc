import { describe, expect, it } from 'vitest';
import type { EnvelopeRecord } from '../../src/output/records.js';
import { statusFactsOf, withFacts } from '../../src/state/status-facts.js';

// Issue 26: a template envelope's envelope.json after sync held four
// recipients — the two roles as the run wrote them (no recipientId yet) and
// the two the listing gave — so "still to sign" counted each person twice.

const record: EnvelopeRecord = {
  job: 'contracts',
  key: 'lucia',
  envelopeId: 'e1',
  status: 'sent',
  digest: 'd',
  transactionId: 't',
  rootUrl: 'http://127.0.0.1/restapi/v2.1',
  accountId: 'a',
  createdAt: '2026-11-26T00:00:00.000Z',
  updatedAt: '2026-11-26T00:00:00.000Z',
  recipients: [
    { recipientId: '', kind: 'signer', roleName: 'employee', name: 'Lucia Moreno', email: 'lucia@example.com' },
    { recipientId: '', kind: 'signer', roleName: 'employer', name: 'Paul Grant', email: 'paul@example.com' },
  ],
  files: [],
};

describe('withFacts', () => {
  it('finds a template role by its roleName when the run wrote it without a recipientId', () => {
    const facts = statusFactsOf({
      envelopeId: 'e1',
      status: 'sent',
      recipients: {
        signers: [
          { recipientId: '7', roleName: 'employer', name: 'Paul Grant', email: 'paul@example.com', status: 'sent' },
          {
            recipientId: '3',
            roleName: 'employee',
            name: 'Lucia Moreno',
            email: 'lucia@example.com',
            status: 'completed',
          },
        ],
      },
    });
    const merged = withFacts(record, facts);
    expect(merged.recipients.map((r) => [r.roleName, r.recipientId, r.status])).toEqual([
      ['employee', '3', 'completed'],
      ['employer', '7', 'sent'],
    ]);
  });

  it('adds a recipient the record did not know, and keeps one it has no facts for', () => {
    const facts = statusFactsOf({
      envelopeId: 'e1',
      status: 'sent',
      recipients: { signers: [{ recipientId: '9', name: 'Extra', email: 'x@example.com', status: 'sent' }] },
    });
    const merged = withFacts(record, facts);
    expect(merged.recipients.map((r) => [r.roleName ?? null, r.recipientId])).toEqual([
      ['employee', ''],
      ['employer', ''],
      [null, '9'],
    ]);
  });
});
