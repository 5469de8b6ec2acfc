import type { ResolvedTemplate } from '../../jobs/model.js';
import { recipientsObject, type TemplateDefinition } from '../../envelope/wire.js';
import { documentDefinitionsOf, wireRecipientOf } from '../envelopes/envelope-definition.js';
import { digestFieldName, identityFieldName, jobFieldName, templateIdentityOf } from '../identity.js';

/**
 * A template's definition without its documents' bytes: what the plan
 * compares with the account's template (template-differences.ts), which
 * names documents by id and name (their bytes count by the digest), so the
 * plan reads no document.
 */
export type TemplateShape = Omit<TemplateDefinition, 'documents'> & {
  documents: Array<{ documentId: string; name: string }>;
};

/**
 * The wire definition of a template kept as code (Templates_PostTemplates
 * and Templates_PutTemplate, `#/definitions/envelopeTemplate`): its shape,
 * with its documents base64-encoded.
 */
export async function templateDefinitionOf(template: ResolvedTemplate): Promise<TemplateDefinition> {
  return { ...templateShapeOf(template), documents: await documentDefinitionsOf(template.documents) };
}

/**
 * A template's definition but for its documents' bytes: each role under its
 * kind's collection with its tabs (as an envelope's recipients are sent),
 * and signrun's custom fields — its identity, by which any run finds it in
 * any account, and the digest of the content written, by which a later run
 * tells a changed file from a template changed outside signrun.
 */
export function templateShapeOf(template: ResolvedTemplate): TemplateShape {
  const shape: TemplateShape = {
    name: template.name,
    documents: template.documents.map((d) => ({ documentId: d.documentId, name: d.name })),
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
  if (template.description !== undefined) shape.description = template.description;
  if (template.emailSubject !== undefined) shape.emailSubject = template.emailSubject;
  if (template.emailBlurb !== undefined) shape.emailBlurb = template.emailBlurb;
  return shape;
}
