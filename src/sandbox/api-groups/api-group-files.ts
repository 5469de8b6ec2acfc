import { readdirSync } from 'node:fs';
import { relative } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

// What `npm run docs:kinds` writes of the sandbox, so that a new API group is
// its folder only: each API's list of its groups' route plugins
// (esignature/api-groups.ts, admin/admin-groups.ts), which the API's entry
// point registers. test/sandbox/api-group-files.test.ts fails when one is stale.
//
// The convention: a group is a folder of the API (folders inside it too, as
// envelopes/recipients/); its entry points are its files named `routes.ts`
// or `<what>-routes.ts`, and each export of theirs named `<what>Routes` that
// is a function is a fastify plugin the API registers. The API's own top
// (its entry point, shared helpers) is not scanned.

/** One API of the sandbox whose groups' plugins are listed. */
export interface SandboxApi {
  /** The API's folder (its groups are its sub-folders). */
  folder: URL;
  /** The generated list's file name in it, without extension. */
  file: string;
  /** The same file from the repository's root, where `docs:kinds` writes it (from src/ or dist/ alike). */
  written: string;
  /** The list's exported name. */
  list: string;
  /** The type of each plugin in the list, and the lines that import what it names. */
  pluginType: string;
  typeImports: readonly string[];
  /** What the list's doc comment says beyond what it is. */
  about: string;
}

/** The eSignature REST API's groups and the Admin API's, in src/ and dist/ alike. */
export const sandboxApis: readonly SandboxApi[] = [
  {
    folder: new URL('../esignature/', import.meta.url),
    file: 'api-groups',
    written: 'src/sandbox/esignature/api-groups.ts',
    list: 'esignatureGroupRoutes',
    pluginType: 'FastifyPluginAsync',
    typeImports: ["import type { FastifyPluginAsync } from 'fastify';"],
    about: 'api-routes.ts registers them',
  },
  {
    folder: new URL('../admin/', import.meta.url),
    file: 'admin-groups',
    written: 'src/sandbox/admin/admin-groups.ts',
    list: 'adminGroupRoutes',
    pluginType: 'FastifyPluginAsync<{ context: AdminContext }>',
    typeImports: [
      "import type { FastifyPluginAsync } from 'fastify';",
      "import type { AdminContext } from './admin-context.js';",
    ],
    about: "admin-plugin.ts registers them, each given the Admin API's context",
  },
];

/** A group's route plugin: its module (from the API's folder, without extension) and its export's name. */
export interface GroupRoutes {
  module: string;
  name: string;
  plugin: unknown;
}

const entryPoint = /^(routes|[a-z0-9-]+-routes)\.(ts|js)$/;

/** The entry points of the groups under `folder`, in path order (a folder's own files before its sub-folders'). */
function entryPoints(folder: URL, top: boolean): URL[] {
  const dirents = readdirSync(fileURLToPath(folder), { withFileTypes: true }).sort((a, b) =>
    a.name.localeCompare(b.name),
  );
  const files = top
    ? []
    : dirents.filter((d) => d.isFile() && entryPoint.test(d.name)).map((d) => new URL(d.name, folder));
  const below = dirents
    .filter((d) => d.isDirectory())
    .flatMap((d) => entryPoints(new URL(`${d.name}/`, folder), false));
  return [...files, ...below];
}

/**
 * The route plugins of an API's groups, found by the convention above, in
 * path order and, within a module, export-name order. Two groups exporting
 * one name is an error (the generated list imports both).
 */
export async function locateGroupRoutes(api: SandboxApi): Promise<GroupRoutes[]> {
  const found: GroupRoutes[] = [];
  for (const file of entryPoints(api.folder, true)) {
    const module = `./${relative(fileURLToPath(api.folder), fileURLToPath(file))
      .replace(/\.(ts|js)$/, '')
      .split('\\')
      .join('/')}`;
    const loaded = (await import(pathToFileURL(fileURLToPath(file)).href)) as Record<string, unknown>;
    // Sorted: a module namespace lists its exports by name, a transformed module (vitest's) as declared.
    for (const [name, plugin] of Object.entries(loaded).sort(([a], [b]) => (a < b ? -1 : 1))) {
      if (!name.endsWith('Routes') || typeof plugin !== 'function') continue;
      const twin = found.find((f) => f.name === name);
      if (twin) throw new Error(`two API groups export ${name}: ${twin.module} and ${module}; rename one`);
      found.push({ module, name, plugin });
    }
  }
  return found;
}

/** The text of an API's generated list of its groups' route plugins. */
export function groupRoutesSource(api: SandboxApi, groups: readonly GroupRoutes[]): string {
  return [
    "// Generated from the API groups' folders by `npm run docs:kinds` (src/sandbox/api-groups/api-group-files.ts):",
    "// a group's `routes.ts` and `<what>-routes.ts` files, their `<what>Routes` exports. Do not edit by hand.",
    ...api.typeImports,
    ...[...new Set(groups.map((g) => g.module))].map(
      (module) =>
        `import { ${groups
          .filter((g) => g.module === module)
          .map((g) => g.name)
          .join(', ')} } from '${module}.js';`,
    ),
    '',
    `/** The route plugins of the API's groups, in their folders' order: ${api.about}. */`,
    `export const ${api.list}: readonly ${api.pluginType}[] = [`,
    ...groups.map((g) => `  ${g.name},`),
    '];',
    '',
  ].join('\n');
}
