import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { accountEntryKinds } from '../../src/jobs/account-entries/account-entry-kinds.js';
import { withAccountEntries } from '../../src/jobs/account-entries/account-entry-schema.js';
import {
  accountEntryKindsSource,
  locateEntries,
  reportSchemaWithKinds,
} from '../../src/runner/resources/kind-files.js';
import type { AccountResourceKind } from '../../src/runner/resources/resource-kind.js';
import { resourceKindNames, resourceKinds as catalogue } from '../../src/runner/resources/resource-kinds.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 33, "the list of resource kinds exists once": every other file that
// names the kinds is generated from the catalogue (`npm run docs:kinds`,
// which runs `docs:jobs` after it); these fail when one is stale.

const resourceKinds: readonly AccountResourceKind[] = catalogue;
const read = (file: string) => readFileSync(join(repoRoot, file), 'utf8');

describe('the files generated from the catalogue of resource kinds (run `npm run docs:kinds`)', () => {
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
