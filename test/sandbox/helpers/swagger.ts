import { readFileSync } from 'node:fs';
import { Ajv, type ValidateFunction } from 'ajv';
import { docusignSpecUrl } from './docusign-spec.js';

/** The REST API versions the sandbox serves, each checked against its own Swagger. */
export type ApiVersion = 'v2' | 'v2.1';

interface Swagger {
  definitions: Record<string, unknown>;
  paths: Record<string, Record<string, { responses?: Record<string, { schema?: { $ref?: string } }> }>>;
}

interface Operation {
  pattern: RegExp;
  method: string;
  responses: Record<string, string | undefined>;
}

interface LoadedSwagger {
  swagger: Swagger;
  ajv: Ajv;
  operations: Operation[];
  cache: Map<string, ValidateFunction>;
}

// DocuSign's official Swaggers, copied with their MIT licence into
// test/fixtures/docusign so that a clone of the repository alone passes.
const files: Record<ApiVersion, 'esignature.rest.swagger-v2.json' | 'esignature.rest.swagger-v2.1.json'> = {
  v2: 'esignature.rest.swagger-v2.json',
  'v2.1': 'esignature.rest.swagger-v2.1.json',
};
const loaded = new Map<ApiVersion, LoadedSwagger>();

function load(version: ApiVersion): LoadedSwagger {
  const known = loaded.get(version);
  if (known) return known;
  const swagger = JSON.parse(readFileSync(docusignSpecUrl(files[version]), 'utf8')) as Swagger;
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
  const result = { swagger, ajv, operations, cache: new Map<string, ValidateFunction>() };
  loaded.set(version, result);
  return result;
}

/** Errors of `data` against `#/definitions/<name>` of the version's Swagger (v2 by default); empty when it validates. */
export function swaggerErrors(name: string, data: unknown, version: ApiVersion = 'v2'): string[] {
  const { swagger, ajv, cache } = load(version);
  if (!(name in swagger.definitions)) throw new Error(`no definition ${name} in the ${version} Swagger`);
  let validate = cache.get(name);
  if (!validate) {
    validate = ajv.compile({ $ref: `swagger#/definitions/${name}` });
    cache.set(name, validate);
  }
  return validate(data) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

/** The API version of a /restapi URL (v2 for anything else). */
export function apiVersionOf(url: string): ApiVersion {
  return /^\/restapi\/v2\.1(\/|$)/.test(new URL(url).pathname) ? 'v2.1' : 'v2';
}

/**
 * Operations v2.1's Swagger no longer lists that the sandbox still serves
 * under /restapi/v2.1 for old clients (the legacy login and token): their
 * answers are checked against v2's Swagger.
 */
const v2OnlyOperations = [/^\/v2\.1\/login_information\/?$/, /^\/v2\.1\/oauth2\/token\/?$/];

/**
 * The Swagger definition a JSON answer of the API must match, and the
 * Swagger (version) it belongs to: the operation's definition for its
 * success status, errorDetails for errors. /restapi/v2.1 answers are
 * checked against v2.1's Swagger, /restapi/v2 ones against v2's.
 * Undefined for paths outside /restapi or answers without a JSON schema.
 */
export function swaggerDefinitionFor(
  method: string,
  url: string,
  status: number,
): { name: string; version: ApiVersion } | undefined {
  const pathname = new URL(url).pathname;
  const match = /^\/restapi\/(v2(?:\.1)?)(\/.*)$/.exec(pathname);
  if (!match) return undefined;
  let version = match[1] as ApiVersion;
  const path = `/${version}${match[2]}`;
  if (status >= 400) return { name: 'errorDetails', version };
  // Document Generation came after the checked-in Swagger: its shapes are docusign-esign 10's models, checked by its tests.
  if (/\/envelopes\/[^/]+\/docGenFormFields$/.test(path)) return undefined;
  let lookup = path;
  if (version === 'v2.1' && v2OnlyOperations.some((p) => p.test(path))) {
    version = 'v2';
    lookup = path.replace(/^\/v2\.1\//, '/v2/');
  }
  const op = load(version).operations.find((o) => o.method === method.toUpperCase() && o.pattern.test(lookup));
  if (!op) throw new Error(`the ${version} Swagger has no operation ${method} ${lookup}`);
  const name = op.responses[String(status)];
  return name === undefined ? undefined : { name, version };
}

/** The definition's name alone (see swaggerDefinitionFor). */
export function definitionFor(method: string, url: string, status: number): string | undefined {
  return swaggerDefinitionFor(method, url, status)?.name;
}
