import type { Auth } from '../../client/auth.js';
import { EsignatureClient } from '../../client/esignature-client.js';

/** The imports' client of the target, and how many requests it has sent so far (their reports count them). */
export function countingClient(target: { rootUrl: string; auth: Auth }): {
  client: EsignatureClient;
  calls: () => number;
} {
  let calls = 0;
  const client = EsignatureClient.create({
    rootUrl: target.rootUrl,
    auth: target.auth,
    onEvent: (event) => {
      if (event.type === 'request') calls += 1;
    },
  });
  return { client, calls: () => calls };
}
