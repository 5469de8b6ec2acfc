import { isIPv4, isIPv6 } from 'node:net';
import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The Host names the sandbox answers to (DNS rebinding defence, issue 14).
 *
 * A web page on evil.example can make its own name resolve to 127.0.0.1
 * and then read, from the victim's browser, whatever the sandbox serves
 * without credentials (the outbox with its signing and activation links, a
 * signing session). The browser still sends `Host: evil.example`: refusing
 * names the sandbox does not own closes that door.
 *
 * Allowed: any IP address literal (a browser sends one only when the page
 * itself was loaded from that address, so no rebinding is involved),
 * `localhost`, the host name given to `--host`, and the host name of
 * `--public-url`. Ports are not compared: a port forward or a proxy may
 * change them, and the name is what rebinding forges. A request without a
 * Host header (HTTP/1.0) is not a browser's and passes.
 */
export class HostAllowList {
  readonly #names: ReadonlySet<string>;

  constructor(names: Iterable<string | undefined>) {
    const set = new Set<string>(['localhost']);
    for (const name of names) {
      // IP addresses (`--host ::1`, `--host 0.0.0.0`) are allowed anyway.
      if (name === undefined || isIPv4(name) || isIPv6(name)) continue;
      const hostname = hostnameOf(name);
      if (hostname !== undefined) set.add(hostname);
    }
    this.#names = set;
  }

  /** Whether a request carrying this Host header may be answered. */
  allows(hostHeader: string | undefined): boolean {
    if (hostHeader === undefined) return true;
    const hostname = hostnameOf(hostHeader);
    if (hostname === undefined) return false;
    if (isIPv4(hostname) || (hostname.startsWith('[') && isIPv6(hostname.slice(1, -1)))) return true;
    return this.#names.has(hostname);
  }

  /** The names allowed besides IP addresses, for messages. */
  get names(): string[] {
    return [...this.#names];
  }
}

/** The host name of a Host header value (`name[:port]`, `[v6][:port]`), lower-case, without a final dot; undefined when malformed. */
export function hostnameOf(hostHeader: string): string | undefined {
  const text = hostHeader.trim().toLowerCase();
  let hostname: string;
  let rest: string;
  if (text.startsWith('[')) {
    const end = text.indexOf(']');
    if (end < 0) return undefined;
    hostname = text.slice(0, end + 1);
    rest = text.slice(end + 1);
  } else {
    const colon = text.indexOf(':');
    hostname = colon < 0 ? text : text.slice(0, colon);
    rest = colon < 0 ? '' : text.slice(colon);
  }
  if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return undefined;
  hostname = hostname.replace(/\.$/, '');
  if (hostname === '' || !/^(\[[0-9a-f:.]+\]|[a-z0-9._-]+)$/.test(hostname)) return undefined;
  return hostname;
}

/**
 * An onRequest hook answering 421 Misdirected Request, in DocuSign's error
 * shape, to a Host the list does not allow: before routing, so no route,
 * fault or limit sees the request.
 */
/** `config.hosts` is read at each request. */
export function hostAllowListHook(config: { readonly hosts: HostAllowList }) {
  // Callback style, not async: it runs on every request (a promise and a microtask turn saved).
  return (request: FastifyRequest, reply: FastifyReply, done: () => void): void => {
    const host = request.headers.host;
    const allowed = config.hosts;
    if (allowed.allows(host)) {
      done();
      return;
    }
    const shown = JSON.stringify((host ?? '').slice(0, 100));
    request.apiErrorCode = 'HOST_NOT_ALLOWED';
    // Answered here: done() is not called, so nothing after this hook runs.
    void reply
      .status(421)
      .header('cache-control', 'no-store')
      .send({
        errorCode: 'HOST_NOT_ALLOWED',
        message:
          `The sandbox does not answer to the host name ${shown}: it answers to IP addresses and to ` +
          `${allowed.names.join(', ')} only, so that a web page cannot reach it by a name of its own (DNS rebinding). ` +
          'To reach it under another name, start it with that name as its public address, e.g. ' +
          '`npx signrun serve --host 0.0.0.0 --public-url http://NAME:8080` (docs/sandbox.md, "On a network").',
      });
  };
}
