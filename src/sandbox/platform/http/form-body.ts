/**
 * HTML forms (the signing page's sign, decline and cancel) and OAuth token
 * requests post application/x-www-form-urlencoded bodies of a few hundred
 * bytes. They get their own limit, far below the JSON limit sized for
 * documents: nothing a form carries needs more, and a larger one is read
 * into memory for nothing.
 */
export const formBodyLimitBytes = 64 * 1024;

export const formContentType = 'application/x-www-form-urlencoded';

/** Whether a request's content type is a form's (for the 413 message). */
export function isFormContentType(contentType: string | undefined): boolean {
  return (contentType ?? '').toLowerCase().startsWith(formContentType);
}

/** Field name → value (the last of repeated names). Object.fromEntries defines `__proto__` as a plain field. */
export function parseFormBody(text: string): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(text));
}
