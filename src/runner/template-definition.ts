import type { ResolvedTemplate } from '../jobs/model.js';
import { recipientsObject, type TemplateDefinition } from '../envelope/wire.js';
import { validatedBytes, wireRecipientOf } from './envelope-definition.js';
import { digestFieldName, identityFieldName, jobFieldName, templateIdentityOf } from './identity.js';

/**
 * The wire definition of a template kept as code (Templates_PostTemplates
 * and Templates_PutTemplate, `#/definitions/envelopeTemplate`): its
 * documents base64-encoded, each role under its kind's collection with its
 * tabs (as an envelope's recipients are sent), and signrun's custom fields:
 * its identity, by which any run finds it in any account, and the digest of
 * the content written, by which a later run tells a changed file from a
 * template changed outside signrun.
 */
export async function templateDefinitionOf(template: ResolvedTemplate): Promise<TemplateDefinition> {
  const definition: TemplateDefinition = {
    name: template.name,
    documents: await Promise.all(
      template.documents.map(async (doc) => ({
        documentId: doc.documentId,
        name: doc.name,
        fileExtension: doc.fileExtension,
        documentBase64: (await validatedBytes(doc)).toString('base64'),
      })),
    ),
    recipients: recipientsObject(
      template.recipients.map((r) => {
        const wire = { roleName: r.roleName ?? '', ...wireRecipientOf(r, r.recipientId ?? '') };
        // A role whose person each envelope gives: DocuSign's placeholder has neither.
        if (wire.name === '') delete wire.name;
        if (wire.email === '') delete wire.email;
        return { kind: r.kind, recipient: wire };
      }),
    ),
    customFields: {
      textCustomFields: [
        { name: identityFieldName, value: templateIdentityOf(template.job, template.key), show: 'false' },
        { name: jobFieldName, value: template.job, show: 'false' },
        { name: digestFieldName, value: template.digest, show: 'false' },
      ],
    },
  };
  if (template.description !== undefined) definition.description = template.description;
  if (template.emailSubject !== undefined) definition.emailSubject = template.emailSubject;
  if (template.emailBlurb !== undefined) definition.emailBlurb = template.emailBlurb;
  return definition;
}
