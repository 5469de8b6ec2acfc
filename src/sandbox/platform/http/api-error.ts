/**
 * An error the sandbox answers on the wire, in DocuSign's shape
 * (`#/definitions/errorDetails`: `{ errorCode, message }`). The codes are
 * DocuSign's own (USER_AUTHENTICATION_FAILED, ENVELOPE_DOES_NOT_EXIST, …) so
 * that clients written for DocuSign branch on them unchanged.
 */
export class ApiError extends Error {
  /** HTTP status: 400 for most of DocuSign's errors, 401 for authentication, 404 for unknown paths. */
  readonly statusCode: number;
  /** DocuSign's errorCode, e.g. ENVELOPE_DOES_NOT_EXIST. */
  readonly errorCode: string;

  constructor(statusCode: number, errorCode: string, message: string) {
    super(message);
    this.name = 'ApiError';
    this.statusCode = statusCode;
    this.errorCode = errorCode;
  }
}

/** Shorthands for the errors the routes answer most, with DocuSign's wording where it is known. */
export const apiErrors = {
  authenticationFailed: (
    why = 'The specified Integrator Key was not found or is disabled, or the user name or password is incorrect.',
  ) =>
    new ApiError(401, 'USER_AUTHENTICATION_FAILED', `One or both of Username and Password are invalid. ${why}`.trim()),
  envelopeNotFound: () =>
    new ApiError(
      400,
      'ENVELOPE_DOES_NOT_EXIST',
      'The envelope specified either does not exist or you have no rights to it.',
    ),
  userLacksMembership: (detail?: string) =>
    new ApiError(
      400,
      'USER_LACKS_MEMBERSHIP',
      `The UserID does not have a valid membership in this Account.${detail ? ` ${detail}` : ''}`,
    ),
  invalidBody: (detail: string) =>
    new ApiError(400, 'INVALID_REQUEST_BODY', `The request body is missing or improperly formatted. ${detail}`),
  invalidParameter: (detail: string) =>
    new ApiError(400, 'INVALID_REQUEST_PARAMETER', `The request contained at least one invalid parameter. ${detail}`),
  templateNotFound: () => new ApiError(400, 'TEMPLATE_ID_INVALID', 'Invalid template ID.'),
  unknownRecipient: () =>
    new ApiError(
      400,
      'UNKNOWN_ENVELOPE_RECIPIENT',
      'The recipient you have identified is not a valid recipient of the specified envelope.',
    ),
  notInSequence: () =>
    new ApiError(400, 'RECIPIENT_NOT_IN_SEQUENCE', 'The token for an out of sequence recipient cannot be generated.'),
  documentNotFound: () => new ApiError(400, 'DOCUMENT_DOES_NOT_EXIST', 'The document specified was not found.'),
  accountLacksPermissions: (detail: string) =>
    new ApiError(400, 'ACCOUNT_LACKS_PERMISSIONS', `This Account lacks sufficient permissions. ${detail}`),
  /** A caller whose permission profile does not allow what it asked (a viewer sending, a sender managing users). */
  userLacksPermissions: () =>
    new ApiError(400, 'USER_LACKS_PERMISSIONS', 'This user lacks sufficient permissions to access this resource.'),
  invalidUserId: () => new ApiError(400, 'INVALID_USERID', 'Invalid UserId.'),
  invalidStatus: (detail: string) => new ApiError(400, 'ENVELOPE_INVALID_STATUS', `Invalid envelope status. ${detail}`),
} as const;
