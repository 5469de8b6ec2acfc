// `npm run docs:jobs`: puts the job-file reference (rendered from the schema)
// into README.md between its job-reference markers and into docs/job-files.md
// between the same markers.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { renderJobReference } from './job-reference.js';
import { replaceMarkerBlock } from './marker-block.js';

for (const [relative, linkBase] of [['../../README.md', ''], ['../../docs/job-files.md', '../']] as const) {
  const path = fileURLToPath(new URL(relative, import.meta.url));
  const before = readFileSync(path, 'utf8');
  const after = replaceMarkerBlock(before, 'job-reference', renderJobReference(linkBase));
  if (after !== before) {
    writeFileSync(`${path}.tmp`, after);
    renameSync(`${path}.tmp`, path);
    console.log(`updated ${relative.slice(6)}`);
  }
}
