import { readdirSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AccountEntryKind } from '../../jobs/account-entries/account-entry-kind.js';
import type { AccountResourceKind } from './resource-kind.js';

// What `npm run docs:kinds` writes from the catalogue of resource kinds, so
// that the list exists once (resource-kinds.ts) and each file that must name
// the kinds is generated from it: src/jobs's list of the kinds' job side
// (src/jobs sits below the runner and cannot import the catalogue) and the
// `kind` enum of report.json's schema. test/runner/kind-files.test.ts fails
// when either is stale.

/** The folder of the kinds' job side, beside this file's own layer in src/ and dist/ alike. */
const entriesFolder = new URL('../../jobs/account-entries/', import.meta.url);

/** The generated list's own file name (without its extension). */
const listModule = 'account-entry-kinds';

/** Where a kind's job side is exported: its module in src/jobs/account-entries/ and the export's name. */
export interface EntryExport {
  module: string;
  name: string;
  entry: AccountEntryKind;
}

/** Finds each catalogue kind's `entry` among the exports of src/jobs/account-entries/, in the catalogue's order. */
export async function locateEntries(kinds: readonly AccountResourceKind[]): Promise<EntryExport[]> {
  const exports: EntryExport[] = [];
  const files = readdirSync(fileURLToPath(entriesFolder))
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts') && !file.startsWith(`${listModule}.`))
    .sort();
  for (const file of files) {
    const module = file.replace(/\.(ts|js)$/, '');
    const loaded = (await import(pathToFileURL(fileURLToPath(new URL(file, entriesFolder))).href)) as Record<
      string,
      unknown
    >;
    for (const [name, value] of Object.entries(loaded))
      if (kinds.some((k) => k.entry === value)) exports.push({ module, name, entry: value as AccountEntryKind });
  }
  return kinds.flatMap((kind) => {
    if (!kind.entry) return [];
    const found = exports.find((e) => e.entry === kind.entry);
    if (!found)
      throw new Error(`the ${kind.kind} kind's entry is not exported by a module of src/jobs/account-entries/`);
    return [found];
  });
}

/** The text of src/jobs/account-entries/account-entry-kinds.ts: the catalogue's job sides, in its order. */
export function accountEntryKindsSource(entries: readonly EntryExport[]): string {
  const imports = [
    "import type { AccountEntryKind } from './account-entry-kind.js';",
    ...[...entries]
      .sort((a, b) => a.module.localeCompare(b.module))
      .map((e) => `import { ${e.name} } from './${e.module}.js';`),
  ];
  return [
    '// Generated from the catalogue of resource kinds (src/runner/resources/resource-kinds.ts) by',
    '// `npm run docs:kinds` (src/runner/resources/kind-files.ts). Do not edit by hand.',
    ...imports,
    '',
    "/** The job file's side of the catalogue's kinds that an account entry keeps, in the catalogue's order. */",
    'export const accountEntryKinds: readonly AccountEntryKind[] = [',
    ...entries.map((e) => `  ${e.name},`),
    '];',
    '',
  ].join('\n');
}

/** report.schema.json's text with the `kind` enum of an account's `contents` set to the catalogue's names. */
export function reportSchemaWithKinds(text: string, names: readonly string[]): string {
  const contents = text.indexOf('"contents": {');
  if (contents < 0) throw new Error('schemas/report.schema.json has no account "contents"');
  const kind = /"kind": \{ "enum": \[[^\]]*\]/g;
  kind.lastIndex = contents;
  const match = kind.exec(text);
  if (!match) throw new Error('schemas/report.schema.json has no `kind` enum in an account\'s "contents"');
  const written = `"kind": { "enum": [${names.map((n) => JSON.stringify(n)).join(', ')}]`;
  return text.slice(0, match.index) + written + text.slice(match.index + match[0].length);
}
