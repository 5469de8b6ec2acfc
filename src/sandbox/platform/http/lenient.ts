import { apiErrors } from './api-error.js';

// DocuSign takes ids, routing orders and positions as strings or numbers
// (the Swagger types them all as strings; SDKs and hand-written clients send
// both), so the sandbox accepts both and answers strings.

/** A string or number as a string; undefined/null stay undefined; anything else is INVALID_REQUEST_BODY. */
export function lenientString(value: unknown, field: string): string | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (typeof value === 'boolean') return String(value);
  throw apiErrors.invalidBody(`'${field}' must be a string.`);
}

/** A positive whole number given as a number or a string holding one. */
export function lenientPositiveInt(value: unknown, field: string): number | undefined {
  const text = lenientString(value, field);
  if (text === undefined || text.trim() === '') return undefined;
  const n = Number(text.trim());
  if (!Number.isInteger(n) || n < 1)
    throw apiErrors.invalidBody(`'${field}' must be a whole number of 1 or more (got "${text}").`);
  return n;
}

/**
 * A routing order: a positive whole number, or 0 (number or string), which
 * DocuSign takes as "not given" — the default order (1, or the template
 * role's). pydocusign sends `routingOrder: 0` by default (issue 11).
 */
export function lenientRoutingOrder(value: unknown, field: string): number | undefined {
  const text = lenientString(value, field);
  if (text !== undefined && text.trim() !== '' && Number(text.trim()) === 0) return undefined;
  return lenientPositiveInt(value, field);
}

/** An object, or undefined; arrays and scalars are INVALID_REQUEST_BODY. */
export function lenientObject(value: unknown, field: string): Record<string, unknown> | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>;
  throw apiErrors.invalidBody(`'${field}' must be an object.`);
}

/** An array, or undefined. */
export function lenientArray(value: unknown, field: string): unknown[] | undefined {
  if (value === undefined || value === null) return undefined;
  if (Array.isArray(value)) return value as unknown[];
  throw apiErrors.invalidBody(`'${field}' must be a list.`);
}

/** Numbers inside tabs (positions, page numbers, ids) as strings, as DocuSign returns them. */
export function stringifyScalars(value: unknown): unknown {
  if (typeof value === 'number') return String(value);
  if (Array.isArray(value)) return value.map(stringifyScalars);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, typeof v === 'boolean' ? String(v) : stringifyScalars(v)]),
    );
  }
  return value;
}
