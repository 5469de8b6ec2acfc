import type { SandboxServices } from './services.js';
import type { Principal } from './esignature/authentication/authenticate.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The sandbox's shared services (src/sandbox/services.ts). */
    sandbox: SandboxServices;
  }
  interface FastifyRequest {
    /** The authenticated caller of an API route; null on public routes. */
    principal: Principal | null;
    /** The DocuSign errorCode answered, for the request log; null on success. */
    apiErrorCode: string | null;
  }
}

export {};
