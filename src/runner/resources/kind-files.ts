import { readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { AccountEntryKind } from '../../jobs/account-entries/account-entry-kind.js';
import type { AccountResourceKind } from './resource-kind.js';

// What `npm run docs:kinds` writes, so that nothing names the resource kinds
// by hand: the catalogue itself (resource-kinds.ts), found in the kinds'
// modules and ordered by their `after`; src/jobs's list of the kinds' job
// side (src/jobs sits below the runner and cannot import the catalogue); and
// the `kind` enum of report.json's schema. test/runner/kind-files.test.ts
// fails when one is stale.
//
// A kind module is a module of src/runner/resources/kinds/ that exports its
// kind, an object that `satisfies AccountResourceKind` (a string `kind`,
// `words`, and `count`, `calls` and `converge`) or a kind of another parent
// (`parent: 'job'` or `'organization'`): every module of the folder is
// imported to find them, except generated catalogues and `write-*` scripts
// (which write when imported).

/** Where the catalogues are written (the modules they import are named from here), in src/ and dist/ alike. */
export const kindsFolder = new URL('./', import.meta.url);

/** The kinds' own modules, one a kind. */
export const kindModulesFolder = new URL('./kinds/', import.meta.url);

/** The generated catalogue's own file name (without its extension). */
const catalogueModule = 'resource-kinds';

/** The generated catalogues of the kinds of another parent (without their extension). */
const parentCatalogueModules = { job: 'job-resource-kinds', organization: 'organization-resource-kinds' } as const;

/** A kind found in a module: the module (its path from the catalogue's folder, without extension) and the export's name. */
export interface KindExport {
  module: string;
  name: string;
  kind: AccountResourceKind;
}

/** The modules of a folder, in name order: `.ts` or `.js`, no declarations, no scripts, not `skip`. */
function modulesOf(folder: URL, skip: readonly string[]): string[] {
  return readdirSync(fileURLToPath(folder))
    .filter((file) => /\.(ts|js)$/.test(file) && !file.endsWith('.d.ts') && !file.startsWith('write-'))
    .filter((file) => !skip.includes(file.replace(/\.(ts|js)$/, '')))
    .sort();
}

/** Imports a folder's module by its file name. */
async function exportsOf(folder: URL, file: string): Promise<Record<string, unknown>> {
  return (await import(pathToFileURL(fileURLToPath(new URL(file, folder))).href)) as Record<string, unknown>;
}

/** How a generated file in `base` imports `folder`'s module `file`: `./brands`, `../../test/…/stamps` (no extension). */
function modulePath(base: URL, folder: URL, file: string): string {
  const path = relative(fileURLToPath(base), fileURLToPath(new URL(file, folder)))
    .replace(/\.(ts|js)$/, '')
    .split('\\')
    .join('/');
  return path.startsWith('.') ? path : `./${path}`;
}

/**
 * Whether an export is a kind an account holds: what `satisfies AccountResourceKind`
 * asks of every kind. A kind of another parent (the job's templates, the
 * organisation's accounts: job-resource-kinds.ts, organization-resource-kinds.ts)
 * is not one, whatever it shares with them.
 */
function isResourceKind(value: unknown): value is AccountResourceKind {
  if (value === null || typeof value !== 'object') return false;
  const k = value as Record<string, unknown>;
  return (
    (k['parent'] === undefined || k['parent'] === 'account') &&
    typeof k['kind'] === 'string' &&
    typeof k['words'] === 'object' &&
    typeof k['count'] === 'function' &&
    typeof k['calls'] === 'function' &&
    typeof k['converge'] === 'function'
  );
}

/**
 * The kinds the modules of `folders` export (src/runner/resources/ by
 * default; a test adds a folder of its own), each once, in no particular
 * order ({@link orderKinds} orders them). Two modules declaring one `kind`
 * name is an error.
 */
export async function locateKinds(folders: readonly URL[] = [kindModulesFolder]): Promise<KindExport[]> {
  return locateExports(folders, isResourceKind, 'the resource kind');
}

/**
 * The exports of the modules of `folders` that `accepts`, each once, with
 * the module and the export's name; two of one `kind` name are an error
 * naming both (`what`: the kind's words in it).
 */
async function locateExports<K extends { readonly kind: string }>(
  folders: readonly URL[],
  accepts: (value: unknown) => value is K,
  what: string,
): Promise<Array<{ module: string; name: string; kind: K }>> {
  const found: Array<{ module: string; name: string; kind: K }> = [];
  for (const folder of folders)
    for (const file of modulesOf(folder, [catalogueModule, ...Object.values(parentCatalogueModules)])) {
      const module = modulePath(kindsFolder, folder, file);
      for (const [name, value] of Object.entries(await exportsOf(folder, file))) {
        if (!accepts(value) || found.some((f) => f.kind === value)) continue;
        const twin = found.find((f) => f.kind.kind === value.kind);
        if (twin)
          throw new Error(
            `two modules declare ${what} "${value.kind}": ${twin.module} (${twin.name}) and ${module} (${name})`,
          );
        found.push({ module, name, kind: value });
      }
    }
  return found;
}

/** What ordering needs of a kind found: its name and its `after`. */
interface Ordered {
  module: string;
  kind: { readonly kind: string; readonly after?: readonly string[] };
}

/**
 * The catalogue's order: each kind after the kinds its `after` names
 * (Kahn's topological sort); of the kinds free to come next, the one whose
 * `kind` name sorts first. An `after` naming no kind, or kinds each after
 * the other, is an error naming them.
 */
export function orderKinds<K extends Ordered>(kinds: readonly K[]): K[] {
  const names = new Set(kinds.map((k) => k.kind.kind));
  for (const k of kinds)
    for (const name of k.kind.after ?? [])
      if (!names.has(name))
        throw new Error(
          `the resource kind "${k.kind.kind}" (${k.module}.ts) is after "${name}", which no kind module declares ` +
            `(the kinds: ${[...names].sort().join(', ')})`,
        );
  const ordered: K[] = [];
  const placed = new Set<string>();
  let left = [...kinds];
  while (left.length > 0) {
    const free = left.filter((k) => (k.kind.after ?? []).every((name) => placed.has(name)));
    if (free.length === 0) throw new Error(`the resource kinds ${cycleOf(left).join(' → ')} are each after the other`);
    const next = free.reduce((a, b) => (b.kind.kind < a.kind.kind ? b : a));
    ordered.push(next);
    placed.add(next.kind.kind);
    left = left.filter((k) => k !== next);
  }
  return ordered;
}

/** A cycle among kinds none of which is free to come next: followed by `after` until a kind comes again. */
function cycleOf(left: readonly Ordered[]): string[] {
  const path: string[] = [];
  let at = left[0]!;
  while (!path.includes(at.kind.kind)) {
    path.push(at.kind.kind);
    at = left.find((k) => at.kind.after?.includes(k.kind.kind))!;
  }
  return [...path.slice(path.indexOf(at.kind.kind)), at.kind.kind];
}

/** A catalogue's first kinds' names, as its comments give them for examples: `permissionProfile`, `group`, …. */
function examplesOf(kinds: ReadonlyArray<{ kind: { readonly kind: string } }>): string {
  const names = kinds.slice(0, 2).map((k) => `\`${k.kind.kind}\``);
  return kinds.length > 2 ? [...names, '…'].join(', ') : names.join(', ');
}

/** The text of src/runner/resources/resource-kinds.ts: the catalogue, in its order. */
export function resourceKindsSource(kinds: readonly KindExport[]): string {
  const imports = [...kinds]
    .sort((a, b) => a.module.localeCompare(b.module))
    .map((k) => `import { ${k.name} } from '${k.module}.js';`);
  return [
    '// Generated from the kind modules of src/runner/resources/ by `npm run docs:kinds`',
    "// (src/runner/resources/kind-files.ts): each kind's place comes from its `after`. Do not edit by hand.",
    "import type { AccountResourceKind } from './resource-kind.js';",
    ...imports,
    '',
    '/**',
    ' * The catalogue of what an account entry keeps inside the account, in',
    ' * dependency order (each kind after the kinds its `after` names): the order a',
    ' * plan lists them, a run converges them and `import account` writes them.',
    ' * The planner, the pipeline, `signrun plan`, the console and the import walk it.',
    ' */',
    'export const resourceKinds = [',
    ...kinds.map((k) => `  ${k.name},`),
    '] as const satisfies readonly AccountResourceKind[];',
    '',
    `/** A kind's name as signrun's records write it (${examplesOf(kinds)}). */`,
    "export type ResourceKindName = (typeof resourceKinds)[number]['kind'];",
    '',
    "/** The kinds' names, in the catalogue's order. */",
    'export const resourceKindNames: readonly ResourceKindName[] = resourceKinds.map((k) => k.kind);',
    '',
    "/** The catalogue's entry of a kind (undefined for a name it does not have). */",
    'export function resourceKindOf(kind: string): AccountResourceKind | undefined {',
    '  return resourceKinds.find((k) => k.kind === kind);',
    '}',
    '',
  ].join('\n');
}

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

/**
 * Finds each kind's `entry` among the exports of src/jobs/account-entries/
 * (and of `more` folders: a test's own), in the kinds' order.
 */
export async function locateEntries(
  kinds: readonly AccountResourceKind[],
  more: readonly URL[] = [],
): Promise<EntryExport[]> {
  const exports: EntryExport[] = [];
  for (const folder of [entriesFolder, ...more])
    for (const file of modulesOf(folder, [listModule])) {
      const module = modulePath(entriesFolder, folder, file);
      for (const [name, value] of Object.entries(await exportsOf(folder, file)))
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
      .map((e) => `import { ${e.name} } from '${e.module}.js';`),
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

/** The parents other than the account, whose catalogues are generated the same way. */
export type OtherParent = keyof typeof parentCatalogueModules;

/** A kind of another parent found in a module: the module, the export's name, the kind. */
export interface ParentKindExport {
  module: string;
  name: string;
  kind: { readonly kind: string; readonly parent: OtherParent; readonly after?: readonly string[] };
}

/** The kinds whose `parent` is `parent` that the modules of `folders` export, each once (ordered by {@link orderKinds}). */
export async function locateParentKinds(
  parent: OtherParent,
  folders: readonly URL[] = [kindModulesFolder],
): Promise<ParentKindExport[]> {
  const ofParent = (value: unknown): value is ParentKindExport['kind'] =>
    value !== null &&
    typeof value === 'object' &&
    (value as Record<string, unknown>)['parent'] === parent &&
    typeof (value as Record<string, unknown>)['kind'] === 'string';
  return locateExports(folders, ofParent, `the ${parent}'s resource kind`);
}

/** The text of job-resource-kinds.ts or organization-resource-kinds.ts: that parent's catalogue, in its order. */
export function parentKindsSource(parent: OtherParent, kinds: readonly ParentKindExport[]): string {
  const imports = [...kinds]
    .sort((a, b) => a.module.localeCompare(b.module))
    .map((k) => `import { ${k.name} } from '${k.module}.js';`);
  const generated = [
    '// Generated from the kind modules of src/runner/resources/ by `npm run docs:kinds`',
    "// (src/runner/resources/kind-files.ts): each kind's place comes from its `after`. Do not edit by hand.",
  ];
  if (parent === 'job')
    return [
      ...generated,
      "import type { JobResourceKind } from './job-resource-kind.js';",
      ...imports,
      '',
      '/**',
      " * The catalogue of the kinds whose parent is the job file (`parent: 'job'`),",
      ' * in the order a run converges them, all before any envelope: the planner',
      " * (plan.ts), the run (run.ts), `signrun plan`'s lines, the console summary",
      ' * and report.json walk it. The account catalogue (resource-kinds.ts) lists',
      " * the kinds an account entry's account holds.",
      ' */',
      `export const jobResourceKinds = [${kinds.map((k) => k.name).join(', ')}] as const satisfies readonly JobResourceKind[];`,
      '',
    ].join('\n');
  return [
    ...generated,
    ...imports,
    "import type { OrganizationResourceKind } from './organization-resource-kind.js';",
    '',
    '/**',
    ' * The catalogue of the kinds whose parent is an organisation (`parent:',
    " * 'organization'`): the accounts themselves. The planner (plan.ts: each",
    " * job's items begin with them, before its envelopes), the run's work items",
    " * (run-work-items.ts) and `signrun plan`'s words walk it; the account",
    ' * catalogue (resource-kinds.ts) lists what each account then holds.',
    ' */',
    `export const organizationResourceKinds = [${kinds.map((k) => k.name).join(', ')}] as const satisfies readonly OrganizationResourceKind[];`,
    '',
    `/** The catalogue's kind of a plan item (${examplesOf(kinds)}): undefined for an envelope. */`,
    'export function organizationKindOf(kind: string): OrganizationResourceKind | undefined {',
    '  return organizationResourceKinds.find((k) => k.kind === kind);',
    '}',
    '',
  ].join('\n');
}
