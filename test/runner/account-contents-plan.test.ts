import { describe, expect, it } from 'vitest';
import { decideContents, type FoundPeople } from '../../src/runner/resources/account/account-contents-plan.js';
import { itemIdentity } from '../../src/runner/resources/item-decision.js';
import { findUser, userDigest } from '../../src/runner/resources/kinds/users.js';
import type { ResolvedAccount } from '../../src/jobs/model.js';
import type { AccountItemProgress } from '../../src/state/journal-progress.js';

const source = { file: 'job.yaml', line: 1, column: 1 };
const account: ResolvedAccount = {
  job: 'j',
  key: 'acme',
  source,
  state: 'present',
  accountName: 'Acme',
  permissionProfiles: [{ permissionProfileName: 'Legal', settings: { allowEnvelopeSending: 'true' }, source }],
  groups: [{ groupName: 'Legal team', permissionProfileName: 'Legal', source }],
  users: [
    {
      email: 'lea@acme.test',
      userName: 'Lea',
      permissionProfileName: 'Legal',
      groups: ['Legal team'],
      state: 'present',
      source,
    },
    { email: 'old@acme.test', state: 'absent', source },
  ],
};

const found = (overrides: Partial<FoundPeople> = {}): FoundPeople => ({
  profiles: [
    { permissionProfileId: '1', permissionProfileName: 'Account Administrator', settings: {} },
    { permissionProfileId: '4', permissionProfileName: 'legal', settings: { allowEnvelopeSending: 'true' } },
  ],
  groups: [{ groupId: '7', groupName: 'Legal Team', permissionProfileId: '4' }],
  users: [
    {
      userId: 'u1',
      email: 'LEA@acme.test',
      userName: 'Lea',
      permissionProfileName: 'Legal',
      groupList: [{ groupName: 'Everyone' }, { groupName: 'Legal team' }],
    },
  ],
  ...overrides,
});

describe('the plan of an account entry’s people', () => {
  it('finds profiles and groups by name and users by email, ignoring case: no change, and an absent user already absent', () => {
    expect(decideContents(account, found()).map((p) => [p.kind, p.action, p.id])).toEqual([
      ['permissionProfile', 'up-to-date', '4'],
      ['group', 'up-to-date', '7'],
      ['user', 'up-to-date', 'u1'],
      ['user', 'already-absent', undefined],
    ]);
  });

  it('creates what the account lacks, and closes an absent user it has', () => {
    const empty = found({ profiles: [], groups: [], users: [{ userId: 'u9', email: 'old@acme.test' }] });
    expect(decideContents(account, empty).map((p) => p.action)).toEqual(['create', 'create', 'create', 'delete']);
  });

  it('says what differs, and calls it changed outside only when the file is what signrun last wrote', () => {
    const drifted = found({
      users: [
        {
          userId: 'u1',
          email: 'lea@acme.test',
          userName: 'Lea',
          permissionProfileName: 'DocuSign Sender',
          groupList: [],
        },
      ],
    });
    const [user] = decideContents(account, drifted).filter((p) => p.kind === 'user');
    expect(user).toMatchObject({
      action: 'update',
      outside: false,
      differences: ['permissionProfileName: "DocuSign Sender" → "Legal"', 'groups: +Legal team'],
    });
    const identity = itemIdentity(account, 'user', 'lea@acme.test');
    const written = new Map<string, AccountItemProgress>([
      [identity, { itemId: 'u1', digest: userDigest(account.users![0]!), present: true }],
    ]);
    expect(decideContents(account, drifted, written).find((p) => p.identity === identity)?.outside).toBe(true);
    // The file changed since: an update, not a change made outside.
    const older = new Map([[identity, { itemId: 'u1', digest: 'an older digest', present: true }]]);
    expect(decideContents(account, drifted, older).find((p) => p.identity === identity)?.outside).toBe(false);
  });

  it('takes the earliest of two users a race made', () => {
    const twice = found({
      users: [
        { userId: 'late', email: 'lea@acme.test', createdDateTime: '2026-11-26T10:00:01.000Z' },
        { userId: 'early', email: 'lea@acme.test', createdDateTime: '2026-11-26T10:00:00.000Z' },
      ],
    });
    expect(findUser(twice, 'lea@acme.test')?.userId).toBe('early');
  });
});
