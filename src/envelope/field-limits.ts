/**
 * DocuSign's documented length limits of an envelope's text fields: the one
 * table that `validate` checks offline (src/jobs, SR_FIELD_TOO_LONG, at the
 * line or CSV cell) and the sandbox enforces when an envelope is created, as
 * DocuSign does (400 INVALID_REQUEST_PARAMETER, src/sandbox/esignature/envelopes/envelope-factory.ts).
 *
 * Lengths are counted as DocuSign's .NET service counts a string: in UTF-16
 * code units (`String.prototype.length`).
 */
export interface FieldLimit {
  /** The field's wire name, as a job file and the request write it. */
  field: string;
  /** Of what: `envelope`, `recipient`, `document`, `custom field`. */
  of: 'envelope' | 'recipient' | 'document' | 'custom field';
  /** The most characters DocuSign takes. */
  max: number;
  /** What DocuSign does with a longer value: refuses the request (400), or cuts the value at `max`. */
  longer: 'refused' | 'cut';
  /** Where the limit is documented. */
  source: string;
}

const swagger = 'DocuSign eSignature REST v2.1 Swagger (spec/esignature.rest.swagger-v2.1.json)';

export const fieldLimits = {
  // Not in the Swagger's description of emailSubject. DocuSign's sending
  // screen limits the subject to 100 characters (UC San Diego's DocuSign
  // guide, blink.ucsd.edu, "Envelope Settings"), and the service refuses a
  // longer one through the API (issue 26; linuxfoundation/easycla#1497:
  // "docusign only supports email subject up to 100 characters").
  emailSubject: {
    field: 'emailSubject',
    of: 'envelope',
    max: 100,
    longer: 'refused',
    source: "DocuSign's sending settings and API answer (not stated in the Swagger)",
  },
  // #/definitions/envelopeDefinition/properties/emailBlurb: "Maximum Length: 10000 characters."
  emailBlurb: {
    field: 'emailBlurb',
    of: 'envelope',
    max: 10_000,
    longer: 'refused',
    source: `${swagger}, envelopeDefinition.emailBlurb`,
  },
  // #/definitions/signer/properties/name (and carbonCopy, …): "Maximum Length: 100 characters."
  recipientName: { field: 'name', of: 'recipient', max: 100, longer: 'refused', source: `${swagger}, signer.name` },
  // #/definitions/signer/properties/email: "Maximum length: 100 characters."
  recipientEmail: { field: 'email', of: 'recipient', max: 100, longer: 'refused', source: `${swagger}, signer.email` },
  // #/definitions/signer/properties/note: "Maximum Length: 1000 characters."
  recipientNote: { field: 'note', of: 'recipient', max: 1000, longer: 'refused', source: `${swagger}, signer.note` },
  // #/definitions/textCustomField/properties/value: "Maximum length: 100 characters."
  customFieldValue: {
    field: 'value',
    of: 'custom field',
    max: 100,
    longer: 'refused',
    source: `${swagger}, textCustomField.value`,
  },
  // The Swagger states no length for document.name. DocuSign keeps 100
  // characters of a document's name and cuts a longer one without an error
  // (Stack Overflow 28731584, "What happens when the limits of DocuSign
  // string fields are exceeded?"): validate refuses it, since the name the
  // signer would see is not the one written; the sandbox cuts it, as DocuSign.
  documentName: {
    field: 'name',
    of: 'document',
    max: 100,
    longer: 'cut',
    source: 'DocuSign cuts a document name at 100 characters (observed; not stated in the Swagger)',
  },
} as const satisfies Record<string, FieldLimit>;

export type FieldLimitName = keyof typeof fieldLimits;

/**
 * What is wrong with a value for its limit, in words (`emailSubject is 190
 * characters long; DocuSign takes at most 100`), or undefined when it fits.
 */
export function fieldLengthProblem(name: FieldLimitName, value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const limit: FieldLimit = fieldLimits[name];
  if (value.length <= limit.max) return undefined;
  return `${limit.of === 'envelope' ? '' : `the ${limit.of}'s `}${limit.field} is ${value.length} characters long; DocuSign takes at most ${limit.max}`;
}
