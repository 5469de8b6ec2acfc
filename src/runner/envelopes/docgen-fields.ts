import type { AccountClient } from '../../client/esignature-client.js';
import { getDocGenFormFields, updateDocGenFormFields } from '../../client/envelope-docgen.js';
import type { DocGenFormFields } from '../../envelope/index.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { wireDocGenFields } from '../../jobs/docgen-form-fields.js';
import type { ResolvedEnvelope } from '../../jobs/model.js';
import { requestPriority } from '../request-priority.js';

/**
 * Sets the values of a draft's Word letters as DocuSign's example 42 does:
 * GET …/docGenFormFields names each DocGen document by a GUID the draft
 * gave it, then one PUT gives each its values (DocuSign generates the
 * letters). The service lists the DocGen documents in the envelope's order,
 * as the job has them; each is checked to hold the fields the job gives
 * (validate checked the DOCX has exactly those), so a value never goes to
 * another letter. Setting the same values again on a draft makes the same
 * letters: a run killed after the PUT and before its journal record puts
 * them again.
 */
export async function setDocGenFormFields(
  envelope: ResolvedEnvelope,
  envelopeId: string,
  account: AccountClient,
  tag: string,
  priority = requestPriority.usual.docgen,
): Promise<void> {
  const options = { tag, priority };
  const letters = envelope.kind === 'documents' ? envelope.documents.filter((d) => d.docGenFormFields) : [];
  const listed = await getDocGenFormFields(account, envelopeId, options);
  if (listed.length !== letters.length)
    throw mismatch(envelope, tag, `the draft has ${listed.length} DocGen document(s), the job ${letters.length}`);
  const request = letters.map((doc, i): DocGenFormFields => {
    const fields = wireDocGenFields(doc.docGenFormFields!);
    const names = new Set((listed[i]!.docGenFormFieldList ?? []).map((f) => f.name));
    const lacking = fields.filter((f) => !names.has(f.name)).map((f) => f.name);
    if (lacking.length > 0)
      throw mismatch(
        envelope,
        tag,
        `document ${doc.documentId} (${doc.name}) has no merge field ${lacking.join(', ')}`,
      );
    return { documentId: listed[i]!.documentId, docGenFormFieldList: fields };
  });
  await updateDocGenFormFields(account, envelopeId, { docGenFormFields: request }, options);
}

function mismatch(envelope: ResolvedEnvelope, tag: string, why: string): SignrunError {
  return new SignrunError(
    'SR_ENVELOPE_FAILED',
    `${tag}: the draft's Word letters are not those of the job (${why}); nothing was sent. Check the document against \`signrun validate\`, then run again.`,
    { location: envelope.source },
  );
}
