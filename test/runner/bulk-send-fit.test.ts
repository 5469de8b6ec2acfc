import { describe, expect, it } from 'vitest';
import type { ResolvedEnvelope, ResolvedTab } from '../../src/jobs/model.js';
import { bulkSendGroups, bulkSendProblems, goesInBulk } from '../../src/runner/bulk-send/bulk-send-fit.js';
import { bulkCopyOf } from '../../src/runner/bulk-send/bulk-send-list.js';
import { documentFixture, envelopeFixture, signerFixture } from './fixtures.js';

// Which rows Bulk Send can copy from one model (src/runner/bulk-send/bulk-send-fit.ts),
// and what each copy carries (bulk-send-list.ts): pure functions, no service.

const textTab = (value: string, label?: string): ResolvedTab => ({
  kind: 'text',
  place: { documentId: '1', pageNumber: '1', xPosition: '100', yPosition: '200' },
  value,
  ...(label ? { fields: { tabLabel: label } } : {}),
  written: ['tabs', 'textTabs', 0],
});

/** Row `n` of one forEach entry: the same declaration, a row number, the row's people and values. */
function row(n: number, extra: Partial<ResolvedEnvelope> = {}): ResolvedEnvelope {
  return envelopeFixture(`e-${n}`, {
    row: n,
    emailSubject: `Offer ${n}`,
    customFields: [{ name: 'employeeId', value: `E${n}` }],
    recipients: [
      signerFixture('1', {
        name: `Person ${n}`,
        email: `p${n}@example.com`,
        clientUserId: `emp-${n}`,
        tabs: [textTab(`${n}`, 'salary')],
      }),
      signerFixture('2', { name: 'HR', email: 'hr@example.com', clientUserId: 'hr' }),
    ],
    ...extra,
  });
}

describe('Bulk Send fit', () => {
  it('groups the rows of one forEach entry; --bulk-send takes every forEach envelope, bulkSend: true only its own', () => {
    const single = envelopeFixture('alone');
    expect(goesInBulk(row(1), true)).toBe(true);
    expect(goesInBulk(row(1), false)).toBe(false);
    expect(goesInBulk(single, true)).toBe(false);
    expect(goesInBulk(row(1, { bulkSend: true }), false)).toBe(true);
    const groups = bulkSendGroups([row(1), single, row(2), row(3)], true);
    expect(groups.map((g) => g.rows.map((r) => r.key))).toEqual([['e-1', 'e-2', 'e-3']]);
  });

  it('takes rows that differ only in people, labelled tab values, custom field values and subject', () => {
    expect(bulkSendProblems(bulkSendGroups([row(1), row(2), row(3)], true))).toEqual([]);
  });

  it('refuses rows that differ in a document, a tab without a label, or a recipient, naming the field and the rows', () => {
    const cases: Array<[ResolvedEnvelope, string]> = [
      [
        row(2, {
          documents: [documentFixture('1', 'renewal-terms.pdf'), documentFixture('2', 'company-handbook.pdf')],
        }),
        'documents[0]',
      ],
      [
        row(2, { recipients: [signerFixture('1', { tabs: [textTab('2')] }), signerFixture('2')] }),
        'recipients[0].tabs[0]',
      ],
      [row(2, { recipients: [signerFixture('1', { tabs: [textTab('2', 'salary')] })] }), 'recipients (2 against 1)'],
    ];
    for (const [second, where] of cases) {
      const problems = bulkSendProblems(bulkSendGroups([row(1), second], true));
      expect(problems).toHaveLength(1);
      expect(problems[0]).toMatchObject({ code: 'SR_BULK_SEND_UNFIT', source: { line: 5, column: 5 } });
      expect(problems[0]!.message).toContain(where);
      expect(problems[0]!.message).toContain('rows 1 and 2');
    }
    // An unlabelled tab whose value differs: the way out is a label.
    const unlabelled = (n: number) =>
      row(n, { recipients: [signerFixture('1', { tabs: [textTab(`${n}`)] }), signerFixture('2')] });
    expect(bulkSendProblems(bulkSendGroups([unlabelled(1), unlabelled(2)], true))[0]!.message).toContain('tabLabel');
  });

  it('refuses an envelope of several templates', () => {
    const composite = row(1, { kind: 'composite', templateRefs: [{ templateId: 't1' }, { templateId: 't2' }] });
    expect(bulkSendProblems(bulkSendGroups([composite], true))[0]!.message).toContain('several templates');
  });

  it("makes a row's copy: recipients by recipientId, labelled tab values, its identity and digest among the custom fields", () => {
    const third = row(3);
    expect(bulkCopyOf(third)).toEqual({
      emailSubject: 'Offer 3',
      recipients: [
        {
          recipientId: '1',
          name: 'Person 3',
          email: 'p3@example.com',
          clientUserId: 'emp-3',
          tabs: [{ tabLabel: 'salary', initialValue: '3' }],
        },
        { recipientId: '2', name: 'HR', email: 'hr@example.com', clientUserId: 'hr' },
      ],
      customFields: [
        { name: 'employeeId', value: 'E3' },
        { name: 'signrun', value: 'runner-test/e-3' },
        { name: 'signrunDigest', value: third.digest },
      ],
    });
  });

  it("names a template's roles by roleName", () => {
    const role = signerFixture('1', { roleName: 'employee' });
    delete role.recipientId;
    const copy = bulkCopyOf(
      envelopeFixture('t', {
        kind: 'template',
        templateId: 'tpl',
        recipients: [],
        documents: [],
        templateRoles: [role],
      }),
    );
    expect(copy.recipients[0]).toMatchObject({ roleName: 'employee', name: 'Signer 1' });
    expect(copy.recipients[0]).not.toHaveProperty('recipientId');
  });
});
