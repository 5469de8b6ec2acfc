import Fastify, { type FastifyInstance } from 'fastify';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { createServices, type ServicesOverrides } from './services.js';
import { sandboxErrorHandler } from './platform/http/error-handler.js';
import { apiRoutes } from './esignature/api-routes.js';
import { restApiV21 } from './esignature/v21-shapes.js';
import { offLoopJsonAbove, parseRequestJson } from './platform/http/large-json-body.js';
import { withBodyBytes } from './platform/http/body-bytes.js';
import { formBodyLimitBytes, formContentType, parseFormBody } from './platform/http/form-body.js';
import { sandboxRoutes } from './control/routes.js';
import { signingRoutes } from './signing/routes.js';
import { managementViewRoutes } from './console/routes.js';
import { connectPlugin } from './esignature/connect/plugin.js';
import { accountServerPlugin } from './oauth/plugin.js';
import { issueServerCertificate, loadOrCreateTlsCa, serverNames } from './platform/tls/tls-ca.js';
import { caRoute } from './platform/tls/ca-route.js';
import { notificationsPlugin } from './esignature/envelopes/notifications/plugin.js';
import type { SandboxOptions } from './contract.js';
import { faultInjectionPlugin, parseFaultSpec } from './platform/faults/index.js';
import { burstLimiter, createBurstLimit } from './platform/limits/burst-limit.js';
import { hostAllowListHook } from './platform/limits/host-allow-list.js';
import { adminApiPlugin } from './admin/admin-plugin.js';
import { namedPlugin } from './platform/http/plugin-name.js';
import { validatorsOnFirstUse } from './platform/http/validators-on-first-use.js';

/**
 * Fastify's own validator builder (what it makes for each app), made once
 * for the process: its pool keeps one Ajv per set of options, and Ajv keeps
 * what it compiled by schema object; the routes' schemas are module
 * constants, so a second app in the process (the suite builds hundreds)
 * reuses the compiled validators instead of making a new Ajv, compiling
 * its meta-schemas and 88 route schemas again (two thirds of a build's CPU
 * before, issue 38). Validators are pure functions of the request. Each is
 * compiled at its route's first request (validators-on-first-use.ts): the
 * first app of a process no longer compiles the schemas of routes it never
 * serves.
 */
const buildValidator = validatorsOnFirstUse(AjvCompiler());

/**
 * Builds the sandbox as a fastify app (not listening): storage opened, seed
 * applied to a new database, services decorated as `app.sandbox`, the API
 * under /restapi/v2 and /restapi/v2.1, /sandbox/*, the signing page and
 * Connect. Tests call `app.inject()`; startSandbox listens. `app.close()`
 * closes the database.
 */
export async function buildSandboxApp(
  options: SandboxOptions = {},
  overrides: ServicesOverrides = {},
): Promise<FastifyInstance> {
  // A bad --faults spec is refused before anything is opened.
  const faultSpec = options.faults !== undefined ? parseFaultSpec(options.faults) : undefined;
  const services = await createServices(options, overrides);
  if (options.burstLimit !== undefined) {
    services.limiters.push(
      burstLimiter(createBurstLimit(options.burstLimit, services.clock), { clock: services.clock }),
    );
  }
  // After the services: the data folder exists (the CA is kept in it).
  const tls = options.tls
    ? issueServerCertificate(loadOrCreateTlsCa(options.dataDir), serverNames(options.host ?? '127.0.0.1'))
    : undefined;
  const app = Fastify({
    ...(tls ? { https: { key: tls.key, cert: tls.cert } } : {}),
    logger: false,
    bodyLimit: services.config.bodyLimitBytes,
    // DocuSign accepts a trailing slash on every path.
    routerOptions: { ignoreTrailingSlash: true },
    // Behind nothing: request.ip is the peer's address (recorded in the certificate).
    trustProxy: false,
    schemaController: { compilersFactory: { buildValidator } },
    // The route schemas are module constants, checked against ajv's meta-schema by
    // test/sandbox/route-schemas.test.ts: checked again at run time, the process's first validator compiled
    // ajv's meta-schema first (~45 ms at each `signrun serve`'s first request that has a schema, a run's
    // first listing). Requests are validated as before.
    ajv: { customOptions: { validateSchema: false } },
  });
  app.decorate('sandbox', services);
  // First of all hooks: a Host the sandbox does not own gets 421 before any route, fault or limit (DNS rebinding).
  app.addHook('onRequest', hostAllowListHook(services.config));
  // A workflow's schedule or delay whose time has come is sent on before the request reads the envelope.
  // The hooks run on every request: callback style, not async (a promise and a microtask turn each).
  app.addHook('onRequest', (_request, _reply, done) => {
    services.resumeDueWorkflows();
    done();
  });
  app.decorateRequest('principal', null);
  app.decorateRequest('apiErrorCode', null);
  app.addHook('onClose', async () => {
    services.close();
    // The WAL checkpointer's connection closes on its own thread: once it has, the folder is left as a closed SQLite leaves it (no WAL).
    await services.walCheckpointer?.closed;
  });
  // Graceful shutdown: answers given while closing end their connection, so
  // a keep-alive client does not hold the server open until its idle timeout.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  // The Date header's text, made again only when the clock's second changes (it has a second's precision).
  let dateSecond = Number.NaN;
  let dateText = '';
  app.addHook('onSend', (_request, reply, payload, done) => {
    if (closing) void reply.header('connection', 'close');
    // The service's time is the sandbox's clock (moved by tests): a client
    // that reads Date to time the hourly limit's reset sees the same hour.
    const now = services.clock.now();
    if (Math.floor(now / 1000) !== dateSecond) {
      dateSecond = Math.floor(now / 1000);
      dateText = new Date(now).toUTCString();
    }
    void reply.header('date', dateText);
    done(null, payload);
  });

  // JSON bodies: DocuSign accepts an empty body (or {}) on GET and DELETE, so
  // an empty body is "no body", not an error.
  app.removeContentTypeParser(['application/json']);
  // Read as bytes (into a reused buffer, platform/http/body-bytes.ts): documentBase64
  // values are decoded straight from them (parseJsonBody), never made into
  // strings (the envelope-creation hot path).
  app.addContentTypeParser(/^application\/(.+\+)?json/i, (request, payload, done) => {
    withBodyBytes(
      payload,
      request.headers,
      request.routeOptions.bodyLimit ?? services.config.bodyLimitBytes,
      parseRequestJson,
      (error, body) => done(error, body),
      // A large body (a document of megabytes) is parsed and decoded on a thread of the document pool: on
      // the event loop it held every other request up for as long (issue 36).
      { above: offLoopJsonAbove, use: (bytes) => services.documentWork.parseJson(bytes) },
    );
  });
  app.addContentTypeParser(
    formContentType,
    { parseAs: 'string', bodyLimit: formBodyLimitBytes },
    (_request, body, done) => done(null, parseFormBody(String(body))),
  );
  // multipart/form-data (envelopes with file parts) and anything else: raw
  // bytes; routes that take them parse them, the others ignore them.
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => {
    done(null, (body as Buffer).length === 0 ? undefined : body);
  });

  app.setErrorHandler((error: Error, request, reply) => sandboxErrorHandler(error, request, reply, options.log));
  app.setNotFoundHandler((request, reply) => {
    request.apiErrorCode = 'RESOURCE_NOT_FOUND';
    void reply.status(404).send({
      errorCode: 'RESOURCE_NOT_FOUND',
      message: `There is no ${request.method} ${request.url.split('?')[0]} in the sandbox API.`,
    });
  });

  if (options.log) {
    const log = options.log;
    // The route pattern, never the raw URL: signing URLs carry tokens.
    app.addHook('onResponse', (request, reply, done) => {
      const code = request.apiErrorCode ? ` ${request.apiErrorCode}` : '';
      log(
        `${request.method} ${request.routeOptions.url ?? '(no route)'} ${reply.statusCode}${code} ${reply.elapsedTime.toFixed(1)}ms`,
      );
      done();
    });
  }

  // Before the API routes: its hooks must wrap them (issue 6, src/sandbox/platform/faults).
  if (faultSpec !== undefined) {
    await app.register(namedPlugin('faults', faultInjectionPlugin), {
      spec: faultSpec,
      ...(options.faultSeed !== undefined ? { seed: options.faultSeed } : {}),
      ...(options.log ? { log: options.log } : {}),
    });
  }
  await registerRoutePlugins(app, {
    ...(options.log ? { log: options.log } : {}),
    ...(options.workDelayMs !== undefined ? { workDelayMs: options.workDelayMs } : {}),
    ...(tls ? { caCertPem: tls.caCertPem } : {}),
  });
  return app;
}

/**
 * Every route of the sandbox, plugin by plugin: what buildSandboxApp serves,
 * and what test/sandbox/route-schemas.test.ts collects the schemas of (the
 * sandbox's ajv does not check them against its meta-schema; that test does).
 */
export async function registerRoutePlugins(
  app: FastifyInstance,
  options: { log?: (line: string) => void; workDelayMs?: number; caCertPem?: string },
): Promise<void> {
  await app.register(namedPlugin('esignature', apiRoutes), { prefix: '/restapi/v2' });
  await app.register(namedPlugin('esignature-v2.1-shapes', restApiV21(apiRoutes)), { prefix: '/restapi/v2.1' });
  await app.register(namedPlugin('sandbox-control', sandboxRoutes));
  await app.register(namedPlugin('signing', signingRoutes));
  await app.register(namedPlugin('management-views', managementViewRoutes));
  await app.register(namedPlugin('connect', connectPlugin));
  await app.register(namedPlugin('account-server', accountServerPlugin));
  await app.register(namedPlugin('admin', adminApiPlugin), {
    prefix: '/management',
    log: options.log,
    ...(options.workDelayMs !== undefined ? { workDelayMs: options.workDelayMs } : {}),
  });
  if (options.caCertPem !== undefined) await app.register(namedPlugin('ca', caRoute(options.caCertPem)));
  await app.register(namedPlugin('notifications', notificationsPlugin));
}
