// `npm run docs:kinds`: writes the files that name the resource kinds
// (kind-files.ts) — the catalogue src/runner/resources/resource-kinds.ts,
// found in the kinds' modules and ordered by their `after`, and the job's
// and the organisation's (job-resource-kinds.ts, organization-resource-kinds.ts);
// src/jobs/account-entries/account-entry-kinds.ts; the `kind` enum of
// schemas/report.schema.json — then the script builds again and runs
// `docs:jobs`, which writes their fields into the job schema. It reads the
// modules, never the catalogue it writes, so a new kind's module is found.
import { updateGeneratedFile } from '../../jobs/update-generated-file.js';
import {
  accountEntryKindsSource,
  locateEntries,
  locateKinds,
  locateParentKinds,
  orderKinds,
  parentKindsSource,
  reportSchemaWithKinds,
  resourceKindsSource,
} from './kind-files.js';

const kinds = orderKinds(await locateKinds());
const entries = await locateEntries(kinds.map((k) => k.kind));
updateGeneratedFile('src/runner/resources/resource-kinds.ts', () => resourceKindsSource(kinds));
for (const parent of ['job', 'organization'] as const) {
  const parentKinds = orderKinds(await locateParentKinds(parent));
  updateGeneratedFile(`src/runner/resources/${parent}-resource-kinds.ts`, () => parentKindsSource(parent, parentKinds));
}
updateGeneratedFile('src/jobs/account-entries/account-entry-kinds.ts', () => accountEntryKindsSource(entries));
updateGeneratedFile('schemas/report.schema.json', (before) =>
  reportSchemaWithKinds(
    before,
    kinds.map((k) => k.kind.kind),
  ),
);
