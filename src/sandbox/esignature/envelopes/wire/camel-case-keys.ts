import {
  anchorFields,
  positionFields,
  prefillCollection,
  recipientKinds,
  tabFields,
  tabKinds,
  unmodelledRecipientCollections,
} from '../../../../envelope/index.js';

/**
 * Names of an envelope creation request the sandbox reads, besides those of
 * the catalogues (tab collections and fields, recipient collections), as the
 * v2.1 Swagger spells them (`#/definitions/envelopeDefinition`, `document`,
 * `signer` and its siblings, `customFields`, `notification`,
 * `eventNotification`, `listItem`, `radio`); a test checks each against it.
 */
export const requestNames: readonly string[] = [
  // envelopeDefinition
  'status',
  'emailSubject',
  'emailBlurb',
  'transactionId',
  'eventNotification',
  'customFields',
  'documents',
  'recipients',
  'templateId',
  'templateRoles',
  'notification',
  // document
  'documentId',
  'name',
  'documentBase64',
  'fileExtension',
  'order',
  // recipients and template roles
  'recipientId',
  'email',
  'clientUserId',
  'routingOrder',
  'roleName',
  'tabs',
  'emailNotification',
  'emailBody',
  'supportedLanguage',
  'hostName',
  'hostEmail',
  'signerName',
  'witnessFor',
  'accessCode',
  'note',
  // custom fields
  'textCustomFields',
  'listCustomFields',
  'fieldId',
  'value',
  'show',
  'required',
  'listItems',
  // eventNotification and notification
  'url',
  'useAccountDefaults',
  'reminders',
  'expirations',
  'reminderEnabled',
  'reminderDelay',
  'reminderFrequency',
  'expireEnabled',
  'expireAfter',
  'expireWarn',
  // list items and radios
  'text',
  'selected',
  'radios',
  'groupName',
];

const known: ReadonlySet<string> = new Set([
  ...requestNames,
  ...recipientKinds.map((k) => k.collection),
  ...unmodelledRecipientCollections,
  ...tabKinds.flatMap((k) => [k.collection, ...Object.keys(k.fields)]),
  prefillCollection,
  ...Object.keys(positionFields),
  ...Object.keys(anchorFields),
  ...Object.keys(tabFields),
]);

/** Known names by their lower case. */
const byLowerCase = new Map([...known].map((name) => [name.toLowerCase(), name]));

/**
 * The request with every key that matches a name the sandbox knows, in any
 * case (`DocumentBase64`, `RECIPIENTID`), written as DocuSign spells it
 * (`documentBase64`): DocuSign's JSON binding matches member names without
 * regard to case, and clients written against its .NET or PowerShell
 * samples send PascalCase. Other keys are kept as they are; a key given both
 * ways keeps the value of the camelCase one. Buffers (documents already
 * decoded by json-body.ts) and other values pass through untouched.
 */
export function camelCaseKeys(value: unknown): unknown {
  if (Array.isArray(value)) {
    // Copied only when an element changed: a request already in camelCase costs no allocation.
    let out: unknown[] | undefined;
    (value as unknown[]).forEach((item, i) => {
      const fixed = camelCaseKeys(item);
      if (fixed !== item) (out ??= [...(value as unknown[])])[i] = fixed;
    });
    return out ?? value;
  }
  if (value === null || typeof value !== 'object' || Buffer.isBuffer(value)) return value;
  const object = value as Record<string, unknown>;
  let changed = false;
  const entries: Array<[string, unknown]> = [];
  for (const [key, v] of Object.entries(object)) {
    const name = known.has(key) ? key : (byLowerCase.get(key.toLowerCase()) ?? key);
    if (name !== key && Object.hasOwn(object, name)) {
      changed = true;
      continue;
    }
    const fixed = camelCaseKeys(v);
    if (name !== key || fixed !== v) changed = true;
    entries.push([name, fixed]);
  }
  // fromEntries defines properties: a "__proto__" key stays a key, never the prototype.
  return changed ? Object.fromEntries(entries) : value;
}
