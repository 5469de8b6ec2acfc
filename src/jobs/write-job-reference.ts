// `npm run docs:jobs`: writes the tab definitions of the catalogue into
// schemas/job.schema.json, puts the job-file reference (rendered from the schema)
// into README.md between its job-reference markers and into docs/job-files.md
// between the same markers, and compiles the schema into
// schemas/job.schema.validator.mjs.
import { compiledJobSchemaSource } from './compile-job-schema.js';
import { renderJobReference } from './job-reference.js';
import { replaceMarkerBlock } from './marker-block.js';
import { recipientSchemaDefs } from './recipient-schema.js';
import { tabSchemaDefs } from './tab-schema.js';
import { accountEntryKinds } from './account-entries/account-entry-kinds.js';
import { withAccountEntries } from './account-entries/account-entry-schema.js';
import { updateGeneratedFile } from './update-generated-file.js';

// The object forms of recipients and tabs are generated from the catalogues (recipient-schema.ts, tab-schema.ts),
// and what an account entry keeps from the resource kinds' job side (account-entries/): written into the schema first.
updateGeneratedFile('schemas/job.schema.json', (before) => {
  const schema = JSON.parse(before) as { $defs: Record<string, unknown> };
  Object.assign(schema.$defs, recipientSchemaDefs(), tabSchemaDefs());
  withAccountEntries(schema, accountEntryKinds);
  return JSON.stringify(schema, null, 2) + '\n';
});

for (const [relative, linkBase] of [
  ['README.md', ''],
  ['docs/job-files.md', '../'],
] as const) {
  updateGeneratedFile(relative, (before) => replaceMarkerBlock(before, 'job-reference', renderJobReference(linkBase)));
}

updateGeneratedFile('schemas/job.schema.validator.mjs', () => compiledJobSchemaSource());
