import { isoTime } from '../clock.js';
import { adminErrors } from './admin-error.js';

/** The Admin API's dates: ISO 8601 in UTC. */
export const adminTime = (ms: number | null | undefined): string | undefined =>
  ms === null || ms === undefined ? undefined : isoTime(ms);

/** DocuSign's demo site, where every sandbox account lives (siteId, siteName of the wire). */
export const sandboxSite = { siteId: 1, siteName: 'DEMO' } as const;

/** The body as an object, or the Admin API's invalid_request naming what to send. */
export function bodyObject(body: unknown, what: string): Record<string, unknown> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw adminErrors.invalidRequest(`Send ${what} as a JSON object.`);
  return body as Record<string, unknown>;
}

/** A member object of a body (absent: empty). */
export function memberObject(parent: Record<string, unknown>, name: string, path: string): Record<string, unknown> {
  const value = parent[name];
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value))
    throw adminErrors.invalidRequest(`'${path}' must be an object.`);
  return value as Record<string, unknown>;
}

/** A string member (numbers and booleans as DocuSign's wire sends them too); absent: undefined. */
export function memberString(parent: Record<string, unknown>, name: string, path: string): string | undefined {
  const value = parent[name];
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  throw adminErrors.invalidRequest(`'${path}' must be a string.`);
}

/** A string member that must be there and not blank. */
export function requiredString(parent: Record<string, unknown>, name: string, path: string): string {
  const value = memberString(parent, name, path)?.trim();
  if (!value) throw adminErrors.invalidRequest(`'${path}' is required.`);
  return value;
}

const emailPattern = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** An email address member that must be there. */
export function requiredEmail(parent: Record<string, unknown>, name: string, path: string): string {
  const value = requiredString(parent, name, path);
  if (!emailPattern.test(value)) throw adminErrors.invalidRequest(`'${path}' must be an email address.`);
  return value;
}

/** A query flag (`true`/`false`); absent: undefined. */
export function queryFlag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return value.toLowerCase() === 'true';
}
