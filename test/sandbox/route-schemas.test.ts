import Fastify, { type FastifyInstance } from 'fastify';
import { Ajv } from 'ajv';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSandboxApp, registerRoutePlugins } from '../../src/sandbox/app.js';
import { createServices, type SandboxServices } from '../../src/sandbox/services.js';

// The sandbox's ajv does not check route schemas against its meta-schema when it compiles them (app.ts:
// that check compiled the meta-schema at a fresh sandbox's first validated request, ~45 ms). The check is
// made here instead, on every schema of every route, collected as each route is registered: buildSandboxApp's
// own route plugins (registerRoutePlugins), on an app whose routes are compared with the sandbox's own.

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
  await registerRoutePlugins(collected, {});
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
