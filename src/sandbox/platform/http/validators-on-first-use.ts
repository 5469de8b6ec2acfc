import type { ValidatorFactory } from '@fastify/ajv-compiler';

/** What fastify passes the compiler for each part of a route's schema (body, querystring, params, headers). */
interface RoutePart {
  schema: unknown;
  method?: string;
  url?: string;
  httpPart?: string;
}

type Validate = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown };

/**
 * Fastify's validator factory, with each route's validator compiled at the route's first request instead of
 * when the route is registered. Fastify compiles every schema of every route before it listens: the
 * sandbox's ~90 route schemas cost ajv 0.6–0.8 s of CPU at each process's first start (profiled on `serve
 * --data`), paid by every `signrun serve`, every `run` against its in-process sandbox, every embedded
 * sandbox, whatever few routes they then use. Each validator is the one fastify would have made, compiled
 * once (ajv keeps it by schema object) and called with the same arguments; fastify reads `errors` from the
 * function it was given, so the wrapper copies them after each call (test/sandbox/validators-on-first-use.test.ts).
 * The cost: a schema ajv cannot compile fails its route's first request (a 500) rather than the start; the
 * schemas are module constants, and each route's tests make that first request.
 */
export function validatorsOnFirstUse(factory: ValidatorFactory): ValidatorFactory {
  const lazyFactory = (...factoryArgs: Parameters<ValidatorFactory>) => {
    const compile = (factory as (...args: unknown[]) => (part: RoutePart) => Validate)(...factoryArgs);
    return (part: RoutePart): Validate => {
      let compiled: Validate | undefined;
      const validate: Validate = (data, context) => {
        compiled ??= compile(part);
        const valid = compiled(data, context);
        validate.errors = compiled.errors;
        return valid;
      };
      // Fastify passes { parentData, parentDataProperty } only to a function with `schemaEnv` (an ajv
      // validator), so that ajv's coercion can replace a request part at its root; ajv's own takes them.
      return Object.assign(validate, { schemaEnv: true });
    };
  };
  return lazyFactory as unknown as ValidatorFactory;
}
