import Fastify, { type FastifyInstance } from 'fastify';
import { AjvCompiler, type ValidatorFactory } from '@fastify/ajv-compiler';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { validatorsOnFirstUse } from '../../src/sandbox/platform/http/validators-on-first-use.js';

// The sandbox's routes validate with validators compiled at each route's first request
// (validators-on-first-use.ts). Side by side with fastify's own eager compiler, the same route must answer
// the same requests the same way: the same errors, coercion and defaults (in the querystring too, whose
// root fastify hands ajv to replace), and each part compiled once, at its first request, not at the start.

const schema = {
  params: { type: 'object', properties: { id: { type: 'integer' } }, required: ['id'] },
  querystring: {
    type: 'object',
    properties: { count: { type: 'integer', default: 3 }, flag: { type: 'string', enum: ['true', 'false'] } },
  },
  body: {
    type: 'object',
    properties: { name: { type: 'string', minLength: 2 }, tags: { type: 'array', items: { type: 'string' } } },
    required: ['name'],
  },
} as const;

let compiles = 0;
const counted: ValidatorFactory = ((...args: unknown[]) => {
  const compile = (AjvCompiler() as (...a: unknown[]) => (part: unknown) => unknown)(...args);
  return (part: unknown) => {
    compiles += 1;
    return compile(part);
  };
}) as unknown as ValidatorFactory;

function appWith(buildValidator: ValidatorFactory): FastifyInstance {
  const app = Fastify({ logger: false, schemaController: { compilersFactory: { buildValidator } } });
  app.setErrorHandler((error: Error & { validation?: unknown }, _request, reply) =>
    reply.status(error.validation ? 400 : 500).send({ message: error.message }),
  );
  app.post('/things/:id', { schema }, async (request) => ({
    params: request.params,
    query: request.query,
    body: request.body,
  }));
  return app;
}

let eager: FastifyInstance;
let lazy: FastifyInstance;
beforeAll(async () => {
  eager = appWith(AjvCompiler());
  lazy = appWith(validatorsOnFirstUse(counted));
  await Promise.all([eager.ready(), lazy.ready()]);
});
afterAll(async () => {
  await Promise.all([eager?.close(), lazy?.close()]);
});

const requests = [
  { url: '/things/7?count=5&flag=true', payload: { name: 'ab', tags: ['x'] } },
  { url: '/things/7', payload: { name: 'ab' } }, // the querystring's default
  { url: '/things/seven', payload: { name: 'ab' } }, // params: not an integer
  { url: '/things/7?flag=maybe', payload: { name: 'ab' } }, // querystring: not in the enum
  { url: '/things/7?count=many', payload: { name: 'ab' } },
  { url: '/things/7', payload: { name: 'a' } }, // body: too short
  { url: '/things/7', payload: { tags: [] } }, // body: name missing
  { url: '/things/7', payload: { name: 'ab', tags: [1, { a: 1 }] } },
];

describe('validators compiled at first use', () => {
  it('compiles nothing at the start, each part once at its first request', async () => {
    expect(compiles).toBe(0);
    await lazy.inject({ method: 'POST', url: '/things/1', payload: { name: 'ab' } });
    expect(compiles).toBe(3); // params, querystring, body
    await lazy.inject({ method: 'POST', url: '/things/2', payload: { name: 'cd' } });
    expect(compiles).toBe(3);
  });

  it.each(requests)('answers $url $payload as fastify’s own validators do', async (request) => {
    const [a, b] = await Promise.all(
      [eager, lazy].map((app) => app.inject({ method: 'POST', url: request.url, payload: request.payload })),
    );
    expect(b!.statusCode).toBe(a!.statusCode);
    expect(b!.json()).toEqual(a!.json());
  });

  it('coerces and fills defaults in place, the querystring at its root too', async () => {
    const answer = await lazy.inject({ method: 'POST', url: '/things/7', payload: { name: 'ab' } });
    expect(answer.statusCode).toBe(200);
    expect(answer.json()).toEqual({ params: { id: 7 }, query: { count: 3 }, body: { name: 'ab' } });
    const refused = await lazy.inject({ method: 'POST', url: '/things/7?flag=maybe', payload: { name: 'ab' } });
    expect(refused.statusCode).toBe(400);
    expect(refused.json<{ message: string }>().message).toMatch(/querystring\/flag must be equal to one of/);
  });
});
