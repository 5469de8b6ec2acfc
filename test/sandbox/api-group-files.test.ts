import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Fastify, { type FastifyPluginAsync } from 'fastify';
import { describe, expect, it } from 'vitest';
import {
  groupRoutesSource,
  locateGroupRoutes,
  sandboxApis,
  type SandboxApi,
} from '../../src/sandbox/api-groups/api-group-files.js';
import { esignatureGroupRoutes } from '../../src/sandbox/esignature/api-groups.js';
import { adminGroupRoutes } from '../../src/sandbox/admin/admin-groups.js';
import { repoRoot } from '../helpers/run-cli.js';

// Issue 33, "adding a resource kind touches its own module, its own sandbox
// API group and generated files": an API group is its folder; the lists its
// API registers are generated from the folders (`npm run docs:kinds`) and
// fail here when stale.

describe('the lists of the sandbox’s API groups (run `npm run docs:kinds`)', () => {
  it('are the route plugins the groups’ folders hold, as docs:kinds writes them', async () => {
    for (const api of sandboxApis) {
      const groups = await locateGroupRoutes(api);
      expect(readFileSync(join(repoRoot, api.written), 'utf8')).toBe(groupRoutesSource(api, groups));
    }
    const [esignature, admin] = await Promise.all(sandboxApis.map((api) => locateGroupRoutes(api)));
    expect(esignatureGroupRoutes).toEqual(esignature!.map((g) => g.plugin));
    expect(adminGroupRoutes).toEqual(admin!.map((g) => g.plugin));
    // Groups in folders inside a group, and several plugins of one group, each registered.
    expect(esignature!.map((g) => `${g.module}#${g.name}`)).toEqual(
      expect.arrayContaining([
        './envelopes/recipients/routes#recipientRoutes',
        './envelopes/views/routes#managementViewApiRoutes',
        './envelopes/views/routes#viewRoutes',
        './templates/parts-routes#templatePartRoutes',
        './groups/routes#groupRoutes',
      ]),
    );
    expect(admin!.map((g) => g.name)).toContain('dsGroupRoutes');
  });

  it('find a new group by its folder alone: its entry point registered, its other files not', async () => {
    const toy: SandboxApi = {
      ...sandboxApis[0]!,
      folder: new URL('./fixtures/toy-api/', import.meta.url),
      file: 'toy-groups',
      list: 'toyGroupRoutes',
    };
    const groups = await locateGroupRoutes(toy);
    expect(groups.map((g) => [g.module, g.name])).toEqual([['./stamps/routes', 'stampRoutes']]);
    expect(groupRoutesSource(toy, groups)).toContain("import { stampRoutes } from './stamps/routes.js';");
    const app = Fastify();
    for (const group of groups) await app.register(group.plugin as FastifyPluginAsync);
    const answer = await app.inject({ method: 'GET', url: '/accounts/a1/stamps' });
    await app.close();
    expect(answer.json()).toEqual({ stamps: [{ stampId: 'a1-1', stampName: 'Approved' }] });
  });
});
