// `npm run docs:jobs`: writes the tab definitions of the catalogue into
// schemas/job.schema.json, puts the job-file reference (rendered from the schema)
// into README.md between its job-reference markers and into docs/job-files.md
// between the same markers, and compiles the schema into
// schemas/job.schema.validator.mjs.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { compiledJobSchemaSource } from './compile-job-schema.js';
import { renderJobReference } from './job-reference.js';
import { replaceMarkerBlock } from './marker-block.js';
import { recipientSchemaDefs } from './recipient-schema.js';
import { tabSchemaDefs } from './tab-schema.js';
import { accountEntryKinds } from './account-entries/account-entry-kinds.js';
import { withAccountEntries } from './account-entries/account-entry-schema.js';

// The object forms of recipients and tabs are generated from the catalogues (recipient-schema.ts, tab-schema.ts),
// and what an account entry keeps from the resource kinds' job side (account-entries/): written into the schema first.
{
  const schemaPath = fileURLToPath(new URL('../../schemas/job.schema.json', import.meta.url));
  const before = readFileSync(schemaPath, 'utf8');
  const schema = JSON.parse(before) as { $defs: Record<string, unknown> };
  Object.assign(schema.$defs, recipientSchemaDefs(), tabSchemaDefs());
  withAccountEntries(schema, accountEntryKinds);
  const after = JSON.stringify(schema, null, 2) + '\n';
  if (after !== before) {
    writeFileSync(`${schemaPath}.tmp`, after);
    renameSync(`${schemaPath}.tmp`, schemaPath);
    console.log('updated schemas/job.schema.json');
  }
}

for (const [relative, linkBase] of [
  ['../../README.md', ''],
  ['../../docs/job-files.md', '../'],
] as const) {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  const before = readFileSync(path, 'utf8');
  const after = replaceMarkerBlock(before, 'job-reference', renderJobReference(linkBase));
  if (after !== before) {
    writeFileSync(`${path}.tmp`, after);
    renameSync(`${path}.tmp`, path);
    console.log(`updated ${relative.slice(6)}`);
  }
}

const validatorPath = fileURLToPath(new URL('../../schemas/job.schema.validator.mjs', import.meta.url));
const source = compiledJobSchemaSource();
let current = '';
try {
  current = readFileSync(validatorPath, 'utf8');
} catch {
  // first run
}
if (current !== source) {
  writeFileSync(`${validatorPath}.tmp`, source);
  renameSync(`${validatorPath}.tmp`, validatorPath);
  console.log('updated schemas/job.schema.validator.mjs');
}
