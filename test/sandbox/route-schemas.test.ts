import Fastify, { type FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp } from '../../src/sandbox/app.js';
import { createServices, type SandboxServices } from '../../src/sandbox/services.js';
import { apiRoutes } from '../../src/sandbox/esignature/api-routes.js';
import { restApiV21 } from '../../src/sandbox/esignature/v21-shapes.js';
import { sandboxRoutes } from '../../src/sandbox/control/routes.js';
import { signingRoutes } from '../../src/sandbox/signing/routes.js';
import { managementViewRoutes } from '../../src/sandbox/console/routes.js';
import { connectPlugin } from '../../src/sandbox/esignature/connect/plugin.js';
import { accountServerPlugin } from '../../src/sandbox/oauth/plugin.js';
import { adminApiPlugin } from '../../src/sandbox/admin/admin-plugin.js';
import { notificationsPlugin } from '../../src/sandbox/esignature/envelopes/notifications/plugin.js';
import { namedPlugin } from '../../src/sandbox/platform/http/plugin-name.js';

// The sandbox's ajv does not check route schemas against its meta-schema when it compiles them (app.ts:
// that check compiled the meta-schema at a fresh sandbox's first validated request, ~45 ms). The check is
// made here instead, on every schema of every route, collected as each route is registered: the same
// plugins as buildSandboxApp registers, on an app whose routes are compared with the sandbox's own.

const routeParts = ['body', 'querystring', 'params', 'headers'] as const;

let services: SandboxServices;
let collected: FastifyInstance;
let sandbox: FastifyInstance;
const schemas: { route: string; part: string; schema: object }[] = [];

beforeAll(async () => {
  services = await createServices({ quiet: true });
  collected = Fastify({ logger: false, routerOptions: { ignoreTrailingSlash: true } });
  // Nothing compiled as they register: the schemas are only collected, and checked below.
  collected.setValidatorCompiler(() => () => true);
  collected.decorate('sandbox', services);
  collected.decorateRequest('principal', null);
  collected.decorateRequest('apiErrorCode', null);
  collected.addHook('onRoute', (route) => {
    const schema = route.schema as Record<string, unknown> | undefined;
    for (const part of routeParts) {
      const partSchema = schema?.[part];
      if (typeof partSchema === 'object' && partSchema !== null)
        schemas.push({ route: `${String(route.method)} ${route.url}`, part, schema: partSchema });
    }
  });
  await collected.register(namedPlugin('esignature', apiRoutes), { prefix: '/restapi/v2' });
  await collected.register(namedPlugin('esignature-v2.1-shapes', restApiV21(apiRoutes)), { prefix: '/restapi/v2.1' });
  await collected.register(namedPlugin('sandbox-control', sandboxRoutes));
  await collected.register(namedPlugin('signing', signingRoutes));
  await collected.register(namedPlugin('management-views', managementViewRoutes));
  await collected.register(namedPlugin('connect', connectPlugin));
  await collected.register(namedPlugin('account-server', accountServerPlugin));
  await collected.register(namedPlugin('admin', adminApiPlugin), { prefix: '/management' });
  await collected.register(namedPlugin('notifications', notificationsPlugin));
  await collected.ready();
  sandbox = await buildSandboxApp({ quiet: true });
  await sandbox.ready();
});

afterAll(async () => {
  await collected?.close();
  services?.close();
  await sandbox?.close();
});

describe("the sandbox's route schemas", () => {
  it('are collected from the very routes the sandbox serves', () => {
    expect(collected.printRoutes()).toBe(sandbox.printRoutes());
    // The API's routes have schemas (ids in params, listing queries): a collection that found none is wrong.
    expect(schemas.length).toBeGreaterThan(80);
  });

  it("are each valid against ajv's meta-schema", () => {
    // The options fastify's compiler gives ajv (@fastify/ajv-compiler), so that keywords are read as the sandbox reads them.
    const ajv = new Ajv({ coerceTypes: 'array', useDefaults: true, removeAdditional: true, strict: false });
    const invalid = schemas
      .filter(({ schema }) => !ajv.validateSchema(schema))
      .map(({ route, part }) => `${route} ${part}: ${ajv.errorsText(ajv.errors)}`);
    expect(invalid).toEqual([]);
  });
});
