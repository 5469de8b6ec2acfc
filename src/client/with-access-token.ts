import type { ApiRequest, Send } from './api-request.js';
import { ClientHttpError } from './client-errors.js';

/**
 * The token layer, just above fetch-once: a request with `oauth` auth goes
 * out with the session's current access token (minted or renewed before
 * expiry by the shared provider); on a 401 the token is renewed — once for
 * all the calls it refused — and the call is made once more. Other auth
 * passes through untouched.
 */
export function withAccessToken(next: Send): Send {
  return async (request: ApiRequest) => {
    const auth = request.auth;
    if (auth.kind !== 'oauth') return next(request);
    const tokens = auth.session.tokens;
    const used = await tokens.token();
    try {
      return await next({ ...request, auth: { kind: 'bearer', accessToken: used } });
    } catch (error) {
      if (!(error instanceof ClientHttpError) || error.status !== 401 || request.signal?.aborted) throw error;
      const renewed = await tokens.renew(used);
      return next({ ...request, auth: { kind: 'bearer', accessToken: renewed } });
    }
  };
}
