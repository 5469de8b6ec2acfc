import type { SandboxOptions, RunningSandbox } from './contract.js';
import type { ServicesOverrides } from './services.js';
import { buildSandboxApp } from './app.js';
import { SignrunError } from '../errors/signrun-error.js';

/**
 * Starts the sandbox in-process and listens (default 127.0.0.1:8080; port 0
 * picks a free port). `close()` stops accepting connections, lets requests
 * in flight finish, then closes the database.
 */
export async function startSandbox(
  options: SandboxOptions = {},
  overrides: ServicesOverrides = {},
): Promise<RunningSandbox> {
  const app = await buildSandboxApp(options, overrides);
  const host = options.host ?? '127.0.0.1';
  try {
    await app.listen({ host, port: options.port ?? 8080 });
  } catch (cause) {
    await app.close();
    const code = (cause as NodeJS.ErrnoException).code;
    throw new SignrunError(
      'SR_SANDBOX_START',
      code === 'EADDRINUSE'
        ? `port ${options.port} on ${host} is already in use`
        : `the sandbox could not listen on ${host}:${options.port}: ${(cause as Error).message}`,
      { cause },
    );
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? 8080);
  const wildcard = host === '0.0.0.0' || host === '::';
  const shownHost = wildcard ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;
  const origin = `${options.tls ? 'https' : 'http'}://${shownHost}:${port}`;
  // Addresses handed out (view URLs, activation links, userinfo's base_uri)
  // come from configuration, never from the Host header: --public-url when
  // given, else this address (loopback on a wildcard one).
  app.sandbox.config.origin ??= origin;
  let closing: Promise<void> | undefined;
  return {
    origin,
    rootUrl: `${origin}/restapi/v2`,
    close: () => (closing ??= app.close()),
    app,
  };
}
