import type { FastifyPluginAsync } from 'fastify';

/**
 * `GET /sandbox/ca.pem`: the certificate of the CA behind `--tls`, for
 * clients to trust (`NODE_EXTRA_CA_CERTS`, `curl --cacert`, Python's
 * `REQUESTS_CA_BUNDLE`). Public by nature; the key never leaves the data folder.
 */
export function caRoute(caCertPem: string): FastifyPluginAsync {
  return async (app) => {
    app.get('/sandbox/ca.pem', async (_request, reply) =>
      reply
        .type('application/x-pem-file')
        .header('content-disposition', 'attachment; filename="signrun-sandbox-ca.pem"')
        .send(caCertPem),
    );
  };
}
