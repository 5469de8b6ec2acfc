// `npm run docs:kinds` (its sandbox half): writes each API's list of its
// groups' route plugins (api-group-files.ts), whole (temp + rename) and only
// when it changed. The sandbox cannot import src/jobs's updateGeneratedFile.
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { groupRoutesSource, locateGroupRoutes, sandboxApis } from './api-group-files.js';

for (const api of sandboxApis) {
  const text = groupRoutesSource(api, await locateGroupRoutes(api));
  const path = fileURLToPath(new URL(`../../../${api.written}`, import.meta.url));
  let before = '';
  try {
    before = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as { code?: string }).code !== 'ENOENT') throw error;
  }
  if (text === before) continue;
  writeFileSync(`${path}.tmp`, text);
  renameSync(`${path}.tmp`, path);
  console.log(`updated ${path}`);
}
