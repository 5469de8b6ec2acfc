// `npm run docs:kinds`: writes the files that name the catalogue's resource
// kinds (kind-files.ts) — src/jobs/account-entries/account-entry-kinds.ts and
// the `kind` enum of schemas/report.schema.json — then the script builds
// again and runs `docs:jobs`, which writes their fields into the job schema.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { accountEntryKindsSource, locateEntries, reportSchemaWithKinds } from './kind-files.js';
import { resourceKindNames, resourceKinds } from './resource-kinds.js';

/** Writes `text` whole (temp + rename) when it differs from the file's. */
function update(relative: string, text: (before: string) => string): void {
  const path = fileURLToPath(new URL(`../../../${relative}`, import.meta.url));
  const before = readFileSync(path, 'utf8');
  const after = text(before);
  if (after === before) return;
  writeFileSync(`${path}.tmp`, after);
  renameSync(`${path}.tmp`, path);
  console.log(`updated ${relative}`);
}

const entries = await locateEntries(resourceKinds);
update('src/jobs/account-entries/account-entry-kinds.ts', () => accountEntryKindsSource(entries));
update('schemas/report.schema.json', (before) => reportSchemaWithKinds(before, resourceKindNames));
