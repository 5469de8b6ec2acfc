import type { DocGenFormFieldRequest, DocGenFormFields } from '../envelope/index.js';
import type { AccountClient, CallOptions } from './esignature-client.js';

// DocuSign's Document Generation on a draft (docusign-esign 10's
// EnvelopesApi.getEnvelopeDocGenFormFields / updateEnvelopeDocGenFormFields,
// the calls example 42 makes): the draft's DocGen documents and their merge
// fields read, then their values set. v2.1 only: DocuSign's v2 has no such
// path, and signrun speaks v2.1 unless told otherwise.

const enc = encodeURIComponent;

/** GET …/envelopes/{envelopeId}/docGenFormFields: each DocGen document with its GUID (`{}` when none). */
export async function getDocGenFormFields(
  account: AccountClient,
  envelopeId: string,
  options: CallOptions = {},
): Promise<DocGenFormFields[]> {
  const answer = await account.requestJson<{ docGenFormFields?: DocGenFormFields[] }>(
    'GET',
    `/envelopes/${enc(envelopeId)}/docGenFormFields`,
    'getDocGenFormFields',
    options,
  );
  return answer.docGenFormFields ?? [];
}

/**
 * PUT …/envelopes/{envelopeId}/docGenFormFields: the values of the draft's
 * DocGen documents, named by their GUIDs; DocuSign generates the letters
 * (and gives them new GUIDs). Idempotent: the same values set twice on a
 * draft make the same letters, so the retry layer may repeat it.
 */
export async function updateDocGenFormFields(
  account: AccountClient,
  envelopeId: string,
  request: DocGenFormFieldRequest,
  options: CallOptions = {},
): Promise<DocGenFormFields[]> {
  const answer = await account.requestJson<{ docGenFormFields?: DocGenFormFields[] }>(
    'PUT',
    `/envelopes/${enc(envelopeId)}/docGenFormFields`,
    'updateDocGenFormFields',
    options,
    request,
  );
  return answer.docGenFormFields ?? [];
}
