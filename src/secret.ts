import { inspect } from 'node:util';

/** A string that must never be printed, logged or written to a report. */
export interface Secret {
  readonly secret: true;
  /** The real value; read it only to put it on the wire. */
  reveal(): string;
}

const REDACTED = '[redacted]';

/**
 * Wraps a secret (password, token) so that it cannot reach a log, a report or
 * an error message by accident: String(), JSON.stringify() and util.inspect()
 * all show `[redacted]`. Only `reveal()` gives the value, at the point where
 * it goes on the wire.
 */
export function makeSecret(value: string): Secret {
  return new SecretValue(value);
}

class SecretValue implements Secret {
  readonly secret = true as const;
  readonly #value: string;

  constructor(value: string) {
    this.#value = value;
  }

  reveal(): string {
    return this.#value;
  }

  toString(): string {
    return REDACTED;
  }

  toJSON(): string {
    return REDACTED;
  }

  [inspect.custom](): string {
    return REDACTED;
  }
}

export function isSecret(value: unknown): value is Secret {
  return value instanceof SecretValue;
}

/**
 * What may be shown or stored of an address (reports, target.json,
 * envelope.json, the console, messages): `url` without user info, query and
 * fragment, any of which may carry a credential (`?token=…`,
 * `https://user:pass@…`). Text that is not a URL loses whatever follows a
 * `?` or `#`, and an `@` before the host.
 */
export function shownUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return url.replace(/[?#].*$/s, '').replace(/^([a-z][a-z0-9+.-]*:\/\/)[^/@]*@/i, '$1');
  }
  if (parsed.username === '' && parsed.password === '' && parsed.search === '' && parsed.hash === '') return url;
  parsed.username = '';
  parsed.password = '';
  parsed.search = '';
  parsed.hash = '';
  return parsed.href.replace(/\/+$/, url.split(/[?#]/)[0]!.endsWith('/') ? '/' : '');
}
