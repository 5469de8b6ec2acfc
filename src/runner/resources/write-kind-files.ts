// `npm run docs:kinds`: writes the files that name the catalogue's resource
// kinds (kind-files.ts) — src/jobs/account-entries/account-entry-kinds.ts and
// the `kind` enum of schemas/report.schema.json — then the script builds
// again and runs `docs:jobs`, which writes their fields into the job schema.
import { updateGeneratedFile } from '../../jobs/update-generated-file.js';
import { accountEntryKindsSource, locateEntries, reportSchemaWithKinds } from './kind-files.js';
import { resourceKindNames, resourceKinds } from './resource-kinds.js';

const entries = await locateEntries(resourceKinds);
updateGeneratedFile('src/jobs/account-entries/account-entry-kinds.ts', () => accountEntryKindsSource(entries));
updateGeneratedFile('schemas/report.schema.json', (before) => reportSchemaWithKinds(before, resourceKindNames));
