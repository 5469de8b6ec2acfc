import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';

/**
 * DocuSign's Admin API Swagger (test/fixtures/docusign, with its MIT
 * licence), as a strict judge of the sandbox's answers: every definition
 * with properties is closed (`additionalProperties: false`), so a wire name
 * the Swagger does not have fails, as well as a wrong type.
 */
interface Swagger {
  definitions: Record<string, Record<string, unknown>>;
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: Record<string, unknown> }> }>>;
}

const swagger = JSON.parse(
  readFileSync(new URL('../../fixtures/docusign/admin.rest.swagger-v2.1.json', import.meta.url), 'utf8'),
) as Swagger;

const closed = Object.fromEntries(
  Object.entries(swagger.definitions).map(([name, definition]) => [
    name,
    definition['properties'] ? { ...definition, additionalProperties: false } : definition,
  ]),
);
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
ajv.addSchema({ $id: 'admin', definitions: closed });

const operations = Object.entries(swagger.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => method !== 'parameters')
      .map(([method, op]) => ({
        path,
        method: method.toUpperCase(),
        pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        schema: op.responses?.['200']?.schema ?? op.responses?.['204']?.schema,
      })),
  )
  // Literal paths before those with parameters (`users/profile` is not `users/{userId}`).
  .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0));

const cache = new Map<string, ValidateFunction>();
const rewrite = (schema: unknown): unknown =>
  JSON.parse(JSON.stringify(schema).replace(/"#\/definitions\//g, '"admin#/definitions/'));

/**
 * What is wrong with an answer of `method path` (path after /management)
 * against the Admin API's Swagger: the operation's schema for a success,
 * `ErrorDetails` for an error. Empty when it matches; throws for a path the
 * Swagger has no operation for.
 */
export function adminSwaggerErrors(method: string, path: string, status: number, body: unknown): string[] {
  const pathname = path.split('?')[0]!;
  let key: string;
  let schema: unknown;
  if (status >= 400) {
    key = 'error';
    schema = { $ref: '#/definitions/ErrorDetails' };
  } else {
    const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(pathname));
    if (!op) throw new Error(`the Admin API's Swagger has no operation ${method} ${pathname}`);
    if (op.schema === undefined) return [];
    key = `${op.method} ${op.path}`;
    schema = op.schema;
  }
  let validate = cache.get(key);
  if (!validate) {
    validate = ajv.compile(rewrite(schema) as object);
    cache.set(key, validate);
  }
  return validate(body)
    ? []
    : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
}
