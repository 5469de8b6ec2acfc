/**
 * An error of DocuSign's account server, answered as OAuth 2.0's
 * `{ error, error_description }` (RFC 6749 5.2), never as the REST API's
 * errorDetails. `error_description` carries DocuSign's own reason words
 * where DocuSign has them (`issuer_not_found`, `no_valid_keys_or_signatures`,
 * `user_not_found`), so clients written for DocuSign branch on them
 * unchanged.
 */
export class OAuthError extends Error {
  readonly statusCode: number;
  /** OAuth's error word: invalid_grant, consent_required, invalid_request… */
  readonly error: string;
  readonly description: string | undefined;

  constructor(statusCode: number, error: string, description?: string) {
    super(description ? `${error}: ${description}` : error);
    this.name = 'OAuthError';
    this.statusCode = statusCode;
    this.error = error;
    this.description = description;
  }

  /** The wire body. */
  toJSON(): { error: string; error_description?: string } {
    return this.description === undefined
      ? { error: this.error }
      : { error: this.error, error_description: this.description };
  }
}

/** invalid_grant with DocuSign's reason word (400). */
export const invalidGrant = (reason: string) => new OAuthError(400, 'invalid_grant', reason);
/** A request the server cannot read (400). */
export const invalidRequest = (description: string) => new OAuthError(400, 'invalid_request', description);
