import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { decideContents, type FoundPeople } from '../../src/runner/resources/account/account-contents-plan.js';
import { itemIdentity } from '../../src/runner/resources/item-decision.js';
import { brandDigest, findBrand } from '../../src/runner/resources/kinds/brands.js';
import { connectDigest, findConnect } from '../../src/runner/resources/kinds/connect-configurations.js';
import type { ResolvedAccount, ResolvedBrand, ResolvedConnect } from '../../src/jobs/model.js';
import type { AccountItemProgress } from '../../src/state/journal-progress.js';
import { makeSecret } from '../../src/secret.js';

const source = { file: 'job.yaml', line: 1, column: 1 };
const png = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);
const pngSha = createHash('sha256').update(png).digest('hex');

const brand = (overrides: Partial<ResolvedBrand> = {}): ResolvedBrand => ({
  brandName: 'Acme',
  brandCompany: 'Acme GmbH',
  colors: [{ name: 'headerBackground', value: '#003366' }],
  logos: { primary: { file: 'logo.png', contentType: 'image/png', sha256: pngSha, bytes: png } },
  isSendingDefault: true,
  state: 'present',
  source,
  ...overrides,
});
const connect = (overrides: Partial<ResolvedConnect> = {}): ResolvedConnect => ({
  name: 'Events',
  fields: {
    urlToPublishTo: 'https://hooks.test/ds',
    includeHMAC: 'true',
    events: ['envelope-sent', 'envelope-completed'],
  },
  password: makeSecret('listener-secret'),
  state: 'present',
  source,
  ...overrides,
});
const accountWith = (brands: ResolvedBrand[], configs: ResolvedConnect[]): ResolvedAccount => ({
  job: 'j',
  key: 'acme',
  source,
  state: 'present',
  accountName: 'Acme',
  brands,
  connect: configs,
});

/** The account as its listings show a brand and a configuration that are the file's. */
const asFile = (): FoundPeople => ({
  profiles: [],
  groups: [],
  users: [],
  brands: [
    {
      brandId: 'b-2',
      brandName: 'ACME',
      brandCompany: 'Acme GmbH',
      colors: [{ name: 'headerBackground', value: '#003366' }],
      isSendingDefault: true,
      logos: { primary: 'https://x/logos/primary' },
      logoDigests: { primary: pngSha },
    },
  ],
  connect: [
    {
      connectId: '3',
      name: 'events',
      urlToPublishTo: 'https://hooks.test/ds',
      includeHMAC: 'true',
      events: ['envelope-completed', 'envelope-sent'],
    },
  ],
});

describe("the plan of an account's brands and Connect configurations", () => {
  it('creates what is missing and finds what is there by name, ignoring case and order', () => {
    const account = accountWith([brand()], [connect()]);
    const missing = decideContents(account, { profiles: [], groups: [], users: [] });
    expect(missing.map((p) => [p.kind, p.action])).toEqual([
      ['brand', 'create'],
      ['connect', 'create'],
    ]);
    const there = decideContents(account, asFile());
    expect(there.map((p) => [p.kind, p.action, p.id])).toEqual([
      ['brand', 'up-to-date', 'b-2'],
      ['connect', 'up-to-date', '3'],
    ]);
  });

  it('says what differs (a logo by its sha256, colours, a Connect field) and whether it changed outside signrun', () => {
    const account = accountWith([brand()], [connect()]);
    const changed = asFile();
    changed.brands![0]!.logoDigests = { primary: 'f'.repeat(64) };
    changed.brands![0]!.colors = [{ name: 'headerBackground', value: '#000000' }];
    changed.connect![0]!['urlToPublishTo'] = 'https://elsewhere.test/';
    const fresh = decideContents(account, changed);
    expect(fresh.map((p) => [p.action, p.outside])).toEqual([
      ['update', false],
      ['update', false],
    ]);
    expect(fresh[0]!.differences).toEqual([
      'colors: headerBackground=#000000 → headerBackground=#003366',
      `logos.primary: sha256 ffffffffffff… → sha256 ${pngSha.slice(0, 12)}… (logo.png)`,
    ]);
    expect(fresh[1]!.differences).toEqual(['urlToPublishTo: "https://elsewhere.test/" → "https://hooks.test/ds"']);
    // signrun wrote these very declarations last: someone else changed the account.
    const journal = new Map<string, AccountItemProgress>([
      [itemIdentity(account, 'brand', 'Acme'), { itemId: 'b-2', digest: brandDigest(brand()), present: true }],
      [itemIdentity(account, 'connect', 'Events'), { itemId: '3', digest: connectDigest(connect()), present: true }],
    ]);
    expect(decideContents(account, changed, journal).map((p) => p.outside)).toEqual([true, true]);
  });

  it("counts a changed listener password (which the account never shows) by the journal's digest, and keeps nothing of it", () => {
    const account = accountWith([], [connect({ password: makeSecret('new-secret') })]);
    const journal = new Map<string, AccountItemProgress>([
      [itemIdentity(account, 'connect', 'Events'), { itemId: '3', digest: connectDigest(connect()), present: true }],
    ]);
    const [plan] = decideContents(account, asFile(), journal);
    expect(plan).toMatchObject({ action: 'update', outside: false });
    expect(plan!.differences[0]).toMatch(/^password: changed/);
    expect(JSON.stringify(plan)).not.toContain('new-secret');
    expect(connectDigest(connect())).not.toBe(connectDigest(connect({ password: makeSecret('other') })));
  });

  it('deletes an absent one that is there, and leaves one that is not', () => {
    const account = accountWith([brand({ state: 'absent' })], [connect({ state: 'absent' })]);
    expect(decideContents(account, asFile()).map((p) => [p.action, p.id])).toEqual([
      ['delete', 'b-2'],
      ['delete', '3'],
    ]);
    expect(
      decideContents(account, { profiles: [], groups: [], users: [], brands: [], connect: [] }).map((p) => p.action),
    ).toEqual(['already-absent', 'already-absent']);
  });

  it('keeps, of several of a name, the brand with the smallest brandId and the earliest Connect configuration', () => {
    expect(
      findBrand(
        [
          { brandId: 'c9', brandName: 'Acme' },
          { brandId: 'A1', brandName: 'acme' },
          { brandId: '00', brandName: 'Other' },
        ],
        'ACME',
      )?.brandId,
    ).toBe('A1');
    expect(
      findConnect(
        [
          { connectId: '12', name: 'Events' },
          { connectId: '9', name: 'events' },
        ],
        'Events',
      )?.connectId,
    ).toBe('9');
  });
});
