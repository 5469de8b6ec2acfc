import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { docusignSpecUrl } from './docusign-spec.js';

// DocuSign's official Swagger, copied with its MIT licence into
// test/fixtures/docusign so that a clone of the repository alone passes.
const swaggerUrl = docusignSpecUrl('esignature.rest.swagger-v2.json');
const swagger = JSON.parse(readFileSync(swaggerUrl, 'utf8')) as {
  definitions: Record<string, unknown>;
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: { $ref?: string } }> }>>;
};

// Swagger 2.0 definitions are JSON Schema draft-4 with extensions (x-ds-*,
// format int32…): strict off so ajv ignores the extensions.
const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
// A few $refs of the Swagger point at definitions it does not contain
// (e.g. offlineAttributes): those accept anything, as a client would.
const missing = new Set<string>();
(function collect(node: unknown): void {
  if (Array.isArray(node)) node.forEach(collect);
  else if (node && typeof node === 'object') {
    for (const [k, v] of Object.entries(node)) {
      if (k === '$ref' && typeof v === 'string' && v.startsWith('#/definitions/')) {
        const name = v.slice('#/definitions/'.length);
        if (!(name in swagger.definitions)) missing.add(name);
      } else collect(v);
    }
  }
})(swagger.definitions);
ajv.addSchema({
  $id: 'swagger',
  definitions: { ...swagger.definitions, ...Object.fromEntries([...missing].map((n) => [n, {}])) },
});

const cache = new Map<string, ValidateFunction>();

/** Errors of `data` against `#/definitions/<name>` of the Swagger; empty when it validates. */
export function swaggerErrors(name: string, data: unknown): string[] {
  if (!(name in swagger.definitions)) throw new Error(`no definition ${name} in the Swagger`);
  let validate = cache.get(name);
  if (!validate) {
    validate = ajv.compile({ $ref: `swagger#/definitions/${name}` });
    cache.set(name, validate);
  }
  return validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

interface Operation {
  pattern: RegExp;
  method: string;
  responses: Record<string, string | undefined>;
}

// Swagger paths as regexes (`/v2/accounts/{accountId}` → one segment per
// parameter), literal paths first so `documents/certificate` is not taken
// for `documents/{documentId}` when both exist.
const operations: Operation[] = Object.entries(swagger.paths)
  .flatMap(([path, methods]) =>
    Object.entries(methods)
      .filter(([method]) => method !== 'parameters')
      .map(([method, op]) => ({
        path,
        pattern: new RegExp(`^${path.replace(/[.]/g, '\\.').replace(/\{[^}]+\}/g, '[^/]+')}/?$`),
        method: method.toUpperCase(),
        responses: Object.fromEntries(
          Object.entries(op.responses ?? {}).map(([status, r]) => [
            status,
            r.schema?.$ref?.replace('#/definitions/', ''),
          ]),
        ),
      })),
  )
  .sort((a, b) => (a.path.match(/\{/g)?.length ?? 0) - (b.path.match(/\{/g)?.length ?? 0))
  .map(({ pattern, method, responses }) => ({ pattern, method, responses }));

/**
 * The Swagger definition a JSON answer of the API must match: the
 * operation's definition for its success status, errorDetails for errors.
 * Undefined for paths outside /restapi or answers without a JSON schema.
 */
export function definitionFor(method: string, url: string, status: number): string | undefined {
  const path = new URL(url).pathname.replace(/^\/restapi\/v2(\.1)?\//, '/v2/');
  if (!path.startsWith('/v2/')) return undefined;
  if (status >= 400) return 'errorDetails';
  const op = operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(path));
  if (!op) throw new Error(`the Swagger has no operation ${method} ${path}`);
  return op.responses[String(status)];
}
