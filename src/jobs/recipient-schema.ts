import { recipientKind, recipientKinds, type RecipientKind } from '../envelope/index.js';

/**
 * `recipients` in schemas/job.schema.json, generated from the recipient
 * catalogue (src/envelope/recipient-kinds.ts): today's list of signers, or
 * an object keyed by DocuSign's recipient collections (the catalogue's),
 * one `$defs` entry per kind named as the kind
 * (`signer`, `carbonCopy`, …) with the fields that kind has — a host for an
 * in-person signer, whom a witness signs for, a clientUserId only where the
 * kind may be embedded, tabs only where it carries them. `npm run docs:jobs`
 * writes these definitions into the schema (write-job-reference.ts).
 */
export function recipientSchemaDefs(): Record<string, object> {
  const collections = recipientKinds.map((k) => `\`${k.collection}\``);
  const defs: Record<string, object> = {
    envelopeRecipients: {
      description: `People of the envelope (creation from documents): a list of signers, in order (signrun's shorthand), or an object keyed by DocuSign's recipient collections (${collections.join(', ')}), each a list. \`routingOrder\` orders them all: recipients of one order act in parallel, the next order when all of them are done.`,
      if: { type: 'array' },
      then: { type: 'array', minItems: 1, items: { $ref: `#/$defs/${recipientKind('signer').definition}` } },
      else: { $ref: '#/$defs/recipientsObject' },
    },
    recipientsObject: {
      type: 'object',
      additionalProperties: false,
      minProperties: 1,
      description:
        "Recipients by DocuSign's collections (Swagger `#/definitions/EnvelopeRecipients`). recipientId numbers every recipient of every collection in one sequence (1, 2, … in the order of the collections below, then of each list, unless given).",
      properties: Object.fromEntries(
        recipientKinds.map((kind) => [
          kind.collection,
          {
            type: 'array',
            minItems: 1,
            description: `${capitalised(kind.words.many)} (DocuSign's \`#/definitions/${kind.definition}\`). ${role[kind.name]}`,
            items: { $ref: `#/$defs/${kind.definition}` },
          },
        ]),
      ),
    },
  };
  defs['templateRecipients'] = {
    type: 'object',
    additionalProperties: false,
    minProperties: 1,
    description:
      "A template's recipients by DocuSign's collections, each a role named by `roleName` (the name envelopes fill with `templateRoles`); a role may leave its person out (name and email given by each envelope) or fix them (a copy every envelope gets).",
    properties: Object.fromEntries(
      recipientKinds.map((kind) => [
        kind.collection,
        {
          type: 'array',
          minItems: 1,
          description: `${capitalised(kind.words.one)} roles (DocuSign's \`#/definitions/${kind.definition}\`). ${role[kind.name]}`,
          items: { $ref: `#/$defs/${roleDefinitionOf(kind)}` },
        },
      ]),
    ),
  };
  for (const kind of recipientKinds) {
    defs[kind.definition] = recipientDef(kind);
    defs[roleDefinitionOf(kind)] = recipientDef(kind, true);
  }
  return defs;
}

/** What each kind does, for its description. */
const role: Record<RecipientKind['name'], string> = {
  signer: 'Signs the documents.',
  carbonCopy:
    'Receives a copy when their turn comes and the completed documents at the end; never acts, never holds the envelope up.',
  certifiedDelivery: 'Must open the documents (no signature): their part is done when they have viewed them.',
  inPersonSigner:
    'Signs in person, on the device of a host (`hostName`, `hostEmail`) who hands it over; `signerName` is who signs.',
  witness: 'Signs as witness of another recipient (`witnessFor`: that recipient’s recipientId), after them.',
  editor: 'May change the envelope’s recipients and fields before passing it on.',
  agent: 'Names the next recipient before passing the envelope on.',
  intermediary: 'Passes the envelope on, possibly to someone else.',
};

/** The `$defs` name of a kind's template role: `signerRole`, `carbonCopyRole`, … */
function roleDefinitionOf(kind: RecipientKind): string {
  return `${kind.definition}Role`;
}

/** The kind with its article, as a sentence says it: "an in-person signer", "a witness". */
function aKind(kind: RecipientKind): string {
  return `${kind.words.article} ${kind.words.one}`;
}

/** A sentence's first word with its capital. */
function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const text = (description: string, maxLength?: number, minLength = 1) => ({
  type: 'string',
  description,
  minLength,
  ...(maxLength !== undefined ? { maxLength } : {}),
});

/** The `$defs` entry of one kind: of an envelope's recipient, or (`templateRole`) of a template's role, whose person may be left out. */
function recipientDef(kind: RecipientKind, templateRole = false): object {
  const properties: Record<string, object> = {};
  if (templateRole)
    properties['roleName'] = text('Name of the role, e.g. employee, employer: envelopes fill it by this name.', 100);
  if (kind.needsHost) {
    properties['hostName'] = text('Name of the host: the person who hands over the device.', 100);
    properties['hostEmail'] = text('Email address of the host: messages go to them.', 100, 3);
    properties['signerName'] = text('Full legal name of the person who signs in person.', 100);
    properties['signerEmail'] = text(
      'Email address of the person who signs (optional: a copy of the completed documents).',
      100,
      3,
    );
  } else {
    properties['name'] = text('Display name of the recipient.', 100);
    properties['email'] = text('Email address of the recipient.', 100, 3);
  }
  properties['recipientId'] = {
    type: 'integer',
    minimum: 1,
    description: 'Identifier unique in the envelope, across all kinds of recipients. Default: 1, 2, … in order.',
  };
  if (kind.signsFor)
    properties['witnessFor'] = {
      type: ['integer', 'string'],
      description:
        'The recipientId of the recipient this witness signs for (a signer or an in-person signer of the envelope).',
    };
  // Every kind has the field, so that validate can say why a kind that cannot be embedded must not have it.
  properties['clientUserId'] = text(
    !kind.mayBeEmbedded
      ? `Not for ${aKind(kind)}: DocuSign gives it no signing address (validate refuses it, SR_RECIPIENT_NOT_EMBEDDABLE).`
      : kind.needsHost
        ? 'Marks an embedded in-person signing: signrun asks for the host’s signing address; unique in the envelope. Requires returnUrl.'
        : 'Marks an embedded recipient (acting through an address signrun asks for); unique in the envelope. Requires returnUrl.',
    100,
  );
  properties['routingOrder'] = {
    type: 'integer',
    minimum: 1,
    description: 'Order of action; recipients with the same value act in parallel. Default 1.',
  };
  properties['supportedLanguage'] = {
    type: 'string',
    description: 'Language of the signing interface and messages, e.g. en, fr.',
  };
  properties['emailSubject'] = { type: 'string', description: 'Per-recipient message subject.', maxLength: 100 };
  properties['emailBody'] = { type: 'string', description: 'Per-recipient message body.', maxLength: 10000 };
  properties['note'] = {
    type: 'string',
    description: 'A note to this recipient, shown in their message and on the signing page.',
    maxLength: 1000,
  };
  properties['accessCode'] = {
    type: 'string',
    description:
      'A code the recipient must enter before seeing the documents (told to them another way, e.g. by phone). A secret: only `${env.NAME}` is accepted, and signrun writes it nowhere.',
  };
  if (kind.hasTabs) properties['tabs'] = { $ref: '#/$defs/recipientTabs' };
  return {
    type: 'object',
    additionalProperties: false,
    required: templateRole
      ? ['roleName']
      : [
          ...(kind.needsHost ? ['hostName', 'hostEmail', 'signerName'] : ['name', 'email']),
          ...(kind.signsFor ? ['witnessFor'] : []),
        ],
    description: templateRole
      ? `${capitalised(aKind(kind))} role of a template (DocuSign's \`#/definitions/${kind.definition}\` with a \`roleName\`): its person is given by each envelope, unless the role fixes one. ${role[kind.name]}`
      : `${capitalised(aKind(kind))} of an envelope built from documents (DocuSign's \`#/definitions/${kind.definition}\`). ${role[kind.name]}`,
    properties,
  };
}
