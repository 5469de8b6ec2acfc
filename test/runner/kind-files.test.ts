import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountEntryKinds } from '../../src/jobs/account-entries/account-entry-kinds.js';
import { withAccountEntries } from '../../src/jobs/account-entries/account-entry-schema.js';
import {
  accountEntryKindsSource,
  locateEntries,
  locateKinds,
  locateParentKinds,
  orderKinds,
  parentKindsSource,
  reportSchemaWithKinds,
  resourceKindsSource,
  type KindExport,
} from '../../src/runner/resources/kind-files.js';
import type { AccountResourceKind } from '../../src/runner/resources/resource-kind.js';
import { resourceKindNames, resourceKinds as catalogue } from '../../src/runner/resources/resource-kinds.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 33, "the list of resource kinds exists once", in the kinds' own
// modules: the catalogue and every other file that names the kinds are
// generated from them (`npm run docs:kinds`, which runs `docs:jobs` after
// it); these fail when one is stale.

const resourceKinds: readonly AccountResourceKind[] = catalogue;
const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

/** A kind of a name, after others, as far as ordering it goes. */
const kindAfter = (kind: string, ...after: string[]): KindExport => ({
  module: `./${kind}`,
  name: kind,
  kind: { ...catalogue[0], kind, after },
});

describe('the files generated from the catalogue of resource kinds (run `npm run docs:kinds`)', () => {
  it('the catalogue is the kind modules found in src/runner/resources/, ordered by their `after`', async () => {
    const kinds = orderKinds(await locateKinds());
    expect(read('src/runner/resources/resource-kinds.ts')).toBe(resourceKindsSource(kinds));
    expect(kinds.map((k) => k.kind)).toEqual(resourceKinds);
    // Today's order, which plans, journals and `import account` output keep.
    expect(resourceKindNames).toEqual([
      'permissionProfile',
      'group',
      'user',
      'setting',
      'brand',
      'connect',
      'organizationUser',
      'template',
    ]);
  });

  it("the job's and the organisation's catalogues are their kind modules, by `parent`, and none is an account's", async () => {
    for (const parent of ['job', 'organization'] as const) {
      const kinds = orderKinds(await locateParentKinds(parent));
      expect(read(`src/runner/resources/${parent}-resource-kinds.ts`)).toBe(parentKindsSource(parent, kinds));
      // The templates of the job file and the accounts of an organisation, each in one module.
      expect(kinds.map((k) => `${k.module}#${k.name}`)).toEqual(
        parent === 'job' ? ['./kinds/job-templates#jobTemplates'] : ['./kinds/accounts#accounts'],
      );
      for (const k of kinds) expect(resourceKinds).not.toContain(k.kind);
    }
  });

  it('orders kinds by `after`, ties by name, and refuses an unknown name or a cycle', () => {
    const names = (kinds: KindExport[]) => orderKinds(kinds).map((k) => k.kind.kind);
    expect(names([kindAfter('c'), kindAfter('a', 'b'), kindAfter('b')])).toEqual(['b', 'a', 'c']);
    expect(names([kindAfter('z'), kindAfter('y', 'z'), kindAfter('x', 'y')])).toEqual(['z', 'y', 'x']);
    expect(() => orderKinds([kindAfter('a', 'nope'), kindAfter('b')])).toThrow(
      'the resource kind "a" (./a.ts) is after "nope", which no kind module declares (the kinds: a, b)',
    );
    expect(() => orderKinds([kindAfter('a', 'c'), kindAfter('b', 'a'), kindAfter('c', 'b'), kindAfter('d')])).toThrow(
      'the resource kinds a → c → b → a are each after the other',
    );
  });

  it('src/jobs lists the catalogue’s job sides, in its order, as docs:kinds writes them', async () => {
    const entries = await locateEntries(resourceKinds);
    expect(read('src/jobs/account-entries/account-entry-kinds.ts')).toBe(accountEntryKindsSource(entries));
    expect(accountEntryKinds).toEqual(resourceKinds.flatMap((k) => (k.entry ? [k.entry] : [])));
    for (const [i, kind] of resourceKinds.filter((k) => k.entry).entries())
      expect(accountEntryKinds[i]).toBe(kind.entry);
  });

  it('report.json’s schema lists the catalogue’s kinds', () => {
    const text = read('schemas/report.schema.json');
    expect(reportSchemaWithKinds(text, resourceKindNames)).toBe(text);
    expect(reportSchemaWithKinds(text, ['permissionProfile'])).not.toBe(text);
  });

  it('the job file’s schema holds each kind’s field as its module writes it', () => {
    const schema = JSON.parse(read('schemas/job.schema.json')) as { $defs: Record<string, unknown> };
    const written = withAccountEntries(structuredClone(schema), accountEntryKinds);
    expect(schema).toEqual(written);
    const properties = Object.keys((schema.$defs['account'] as { properties: object }).properties);
    for (const kind of accountEntryKinds) expect(properties).toContain(kind.field);
  });
});
