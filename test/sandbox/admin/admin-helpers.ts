import type { Clock } from '../../../src/sandbox/clock.js';
import type { RunningSandbox } from '../../../src/sandbox/contract.js';
import { seedAdminScopes } from '../../../src/sandbox/seed/default-seed.js';
import { injectedSandbox, sandboxFetch } from '../helpers/injected-sandbox.js';
import { jwtBearer, newKeyPair, signAssertion, tokenRequest } from '../helpers/jwt.js';
import { adminSwaggerErrors } from './admin-swagger.js';

/** A sandbox (through inject()) with a clock the test moves, and the seed user's admin token. */
export interface AdminSandbox {
  sandbox: RunningSandbox;
  /** Moves the sandbox's clock on. */
  advance(ms: number): void;
  /** A token for the seed user with these scopes (default: every admin scope of the seed's consent). */
  token(scope?: string): Promise<string>;
  /** Calls the Admin API (path after /management) with a token; JSON in, status and parsed answer out. */
  call(
    method: string,
    path: string,
    options?: {
      body?: unknown;
      token?: string;
      raw?: { contentType: string; payload: string | Buffer };
      /** Not held to the Swagger (a path it does not describe, such as an export's CSV). */
      unchecked?: boolean;
    },
  ): Promise<{ status: number; json: any; text: string; headers: Headers }>;
  close(): Promise<void>;
}

export async function adminSandbox(): Promise<AdminSandbox> {
  let now = Date.UTC(2026, 10, 28, 9, 0, 0);
  const clock: Clock = { now: () => now };
  const sandbox = await injectedSandbox({}, { clock });
  const { privateKey } = await newKeyPair(sandbox.origin);
  const aud = new URL(sandbox.origin).host;
  const tokens = new Map<string, string>();
  const token = async (scope = `signature impersonation ${seedAdminScopes}`) => {
    const known = tokens.get(scope);
    if (known) return known;
    const answer = await tokenRequest(sandbox.origin, {
      grant_type: jwtBearer,
      assertion: await signAssertion(privateKey, { aud, scope }, now),
    });
    if (answer.status !== 200) throw new Error(`token: ${JSON.stringify(answer.json)}`);
    tokens.set(scope, answer.json.access_token);
    return answer.json.access_token as string;
  };
  return {
    sandbox,
    advance: (ms) => {
      now += ms;
    },
    token,
    async call(method, path, options = {}) {
      const headers: Record<string, string> = { authorization: `Bearer ${options.token ?? (await token())}` };
      let body: string | Buffer | undefined;
      if (options.raw) {
        headers['content-type'] = options.raw.contentType;
        body = options.raw.payload;
      } else if (options.body !== undefined) {
        headers['content-type'] = 'application/json';
        body = JSON.stringify(options.body);
      }
      const response = await sandboxFetch(`${sandbox.origin}/management${path}`, {
        method,
        headers,
        ...(body !== undefined ? { body } : {}),
      });
      const text = await response.text();
      let json: any;
      try {
        json = text === '' ? undefined : JSON.parse(text);
      } catch {
        json = undefined;
      }
      // Every JSON answer is held to the Admin API's Swagger (closed definitions: no wire name it lacks).
      if (json !== undefined && !options.unchecked) {
        const problems = adminSwaggerErrors(method, path, response.status, json);
        if (problems.length > 0)
          throw new Error(
            `${method} ${path} answered ${response.status} off the Swagger: ${problems.join('; ')}\n${text}`,
          );
      }
      return { status: response.status, json, text, headers: response.headers };
    },
    close: () => sandbox.close(),
  };
}
