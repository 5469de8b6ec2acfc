/**
 * DocuSign's tab kinds, one entry each: the catalogue that every part of
 * signrun reads when it needs to know about a kind of tab (the job schema's
 * tests, expansion, the digest, the client's request builder, the sandbox's
 * parser, signing page and stamp, the preview). Nothing outside src/envelope
 * names a tab collection: it asks this catalogue.
 *
 * Wire names are those of DocuSign's v2.1 Swagger (`#/definitions/tabs`,
 * called EnvelopeRecipientTabs there): each kind's list lives under
 * `collection` in a recipient's `tabs`, and its items follow
 * `#/definitions/<definition>`. A test walks the catalogue against the
 * Swagger, so a field named here is a field DocuSign has.
 */

/** What a tab's `value` holds, and so what a value given before sending must be. */
export type TabValueType =
  /** No value: a signature, an initial, a button. */
  | 'none'
  | 'text'
  | 'number'
  | 'date'
  /** `selected` true/false (a checkbox). */
  | 'boolean'
  /** One of `listItems[].value`. */
  | 'list'
  /** One of `radios[].value` (the group's selected radio). */
  | 'radio'
  /** Computed by DocuSign from `formula`; never given. */
  | 'formula';

/**
 * Who gives the tab its value: the recipient at signing, DocuSign itself
 * (the date signed, the recipient's name), or nobody (a note the sender
 * wrote, a button).
 */
export type TabFiller = 'recipient' | 'service' | 'nobody';

/**
 * How a tab is drawn on the page (the signing page, the stamp, the preview
 * all draw the same thing for the same kind): the PDF layer has one drawer
 * per style.
 */
export type TabDrawing = 'signature' | 'initials' | 'text' | 'checkbox' | 'radio' | 'list' | 'button' | 'attachment';

/** A field of a tab: its wire name and what a job file may write there (DocuSign sends every value as a string). */
export type TabFieldType = 'string' | 'integer' | 'number' | 'boolean' | 'list-items' | 'radios';

export interface TabKind {
  /** The kind's name in signrun (Swagger's definition name, camelCase): `signHere`, `text`, … */
  readonly name: TabKindName;
  /** The recipient's `tabs` member that lists this kind: `signHereTabs`, `textTabs`, … */
  readonly collection: TabCollection;
  /** `#/definitions/<definition>` of DocuSign's Swagger. */
  readonly definition: string;
  readonly valueType: TabValueType;
  readonly filledBy: TabFiller;
  /** DocuSign's size when the tab gives none, in points. */
  readonly defaultSize: { readonly width: number; readonly height: number };
  readonly drawing: TabDrawing;
  /** Every field of this kind besides its place (the common ones it has, and its own), with their type. */
  readonly fields: Readonly<Record<string, TabFieldType>>;
  /** The kind in words for people ("date signed"), and its article: the signing page's label, the schema's descriptions. */
  readonly words: TabKindWords;
}

/** A tab kind in words: lower case as in a sentence ("date signed", "SSN"), with the article it takes ("an SSN"). */
export interface TabKindWords {
  readonly one: string;
  readonly article: 'a' | 'an';
}

/** Where a tab goes: by position on a page (points from the top-left corner, y down) … */
export const positionFields = {
  documentId: 'integer',
  pageNumber: 'integer',
  xPosition: 'integer',
  yPosition: 'integer',
} as const satisfies Record<string, TabFieldType>;

/** … or by anchor: at every occurrence of a text in the envelope's documents. */
export const anchorFields = {
  anchorString: 'string',
  anchorXOffset: 'number',
  anchorYOffset: 'number',
  anchorUnits: 'string',
  anchorIgnoreIfNotPresent: 'boolean',
  anchorCaseSensitive: 'boolean',
  anchorMatchWholeWord: 'boolean',
} as const satisfies Record<string, TabFieldType>;

/** Fields most kinds share; each kind's `fields` says which of them it has (a signature has no `value`). */
export const tabFields = {
  tabLabel: 'string',
  value: 'string',
  locked: 'boolean',
  required: 'boolean',
  width: 'number',
  height: 'number',
  font: 'string',
  fontSize: 'string',
  bold: 'boolean',
  tooltip: 'string',
} as const satisfies Record<string, TabFieldType>;

type CommonField = keyof typeof tabFields;

/** Fields of a kind whose text the recipient types and DocuSign checks. */
const validated = { maxLength: 'integer', validationPattern: 'string', validationMessage: 'string' } as const;

/** The common fields a kind lacks, by family (as DocuSign's Swagger defines them). */
const without = {
  /** A mark the recipient makes: nothing to fill, nothing to lock, no text style. */
  mark: ['value', 'locked', 'required', 'font', 'fontSize', 'bold'],
  /** Filled by DocuSign (or written by the sender): never required, never locked. */
  given: ['locked', 'required'],
  /** A button or a stamp of DocuSign's: no value to give. */
  button: ['value', 'locked', 'required'],
} as const satisfies Record<string, readonly CommonField[]>;

const kind = <const N extends string>(
  name: N,
  definition: string,
  valueType: TabValueType,
  filledBy: TabFiller,
  drawing: TabDrawing,
  size: readonly [width: number, height: number],
  own: Record<string, TabFieldType> = {},
  lacks: readonly CommonField[] = [],
) => ({
  name,
  collection: `${name}Tabs`,
  definition,
  valueType,
  filledBy,
  defaultSize: { width: size[0], height: size[1] },
  drawing,
  fields: {
    ...Object.fromEntries(Object.entries(tabFields).filter(([field]) => !lacks.includes(field as CommonField))),
    ...own,
  } as Readonly<Record<string, TabFieldType>>,
});

/**
 * The catalogue, in the order of the design's contract. Sizes are DocuSign's
 * defaults as its web tool places them (a signature 180 × 48 is what the
 * sandbox has always stamped).
 */
const entries = [
  kind(
    'signHere',
    'signHere',
    'none',
    'recipient',
    'signature',
    [180, 48],
    { optional: 'boolean', scaleValue: 'number' },
    without.mark,
  ),
  kind(
    'initialHere',
    'initialHere',
    'none',
    'recipient',
    'initials',
    [60, 36],
    { optional: 'boolean', scaleValue: 'number' },
    without.mark,
  ),
  kind('dateSigned', 'dateSigned', 'date', 'service', 'text', [120, 18], {}, without.given),
  kind('fullName', 'fullName', 'text', 'service', 'text', [160, 18], {}, without.given),
  kind('emailAddress', 'emailAddress', 'text', 'service', 'text', [180, 18], {}, without.given),
  kind('company', 'company', 'text', 'recipient', 'text', [160, 18], { maxLength: 'integer' }),
  kind('title', 'title', 'text', 'recipient', 'text', [160, 18], { maxLength: 'integer' }),
  kind('text', 'text', 'text', 'recipient', 'text', [160, 18], { ...validated, shared: 'boolean' }),
  kind('number', 'number', 'number', 'recipient', 'text', [120, 18], { ...validated }),
  kind('date', 'date', 'date', 'recipient', 'text', [120, 18], { ...validated }),
  kind(
    'checkbox',
    'checkbox',
    'boolean',
    'recipient',
    'checkbox',
    [12, 12],
    { selected: 'boolean', shared: 'boolean' },
    ['value'],
  ),
  kind('list', 'list', 'list', 'recipient', 'list', [140, 18], { listItems: 'list-items' }),
  // A radio group has no place of its own but its document: each of its radios has a place, a value, `selected`.
  kind(
    'radioGroup',
    'radioGroup',
    'radio',
    'recipient',
    'radio',
    [12, 12],
    { groupName: 'string', radios: 'radios', shared: 'boolean' },
    ['tabLabel', 'value', 'locked', 'required', 'width', 'height', 'font', 'fontSize', 'bold'],
  ),
  kind('note', 'note', 'text', 'nobody', 'text', [200, 36], { shared: 'boolean' }, without.given),
  kind('formula', 'formulaTab', 'formula', 'service', 'text', [120, 18], {
    formula: 'string',
    roundDecimalPlaces: 'string',
  }),
  kind('approve', 'approve', 'none', 'recipient', 'button', [80, 24], { buttonText: 'string' }, without.button),
  kind(
    'decline',
    'decline',
    'none',
    'recipient',
    'button',
    [80, 24],
    { buttonText: 'string', declineReason: 'string' },
    without.button,
  ),
  kind('email', 'email', 'text', 'recipient', 'text', [180, 18], { ...validated }),
  kind('ssn', 'ssn', 'text', 'recipient', 'text', [110, 18], { ...validated }),
  kind('zip', 'zip', 'text', 'recipient', 'text', [80, 18], { ...validated, useDash4: 'boolean' }),
  kind('currency', 'currency', 'number', 'recipient', 'text', [120, 18], { maxLength: 'integer' }),
  kind('phoneNumber', 'phoneNumber', 'text', 'recipient', 'text', [130, 18], { maxLength: 'integer' }),
  kind('firstName', 'firstName', 'text', 'service', 'text', [120, 18], {}, without.given),
  kind('lastName', 'lastName', 'text', 'service', 'text', [120, 18], {}, without.given),
  kind('envelopeId', 'envelopeId', 'text', 'service', 'text', [240, 18], {}, without.button),
  kind('view', 'view', 'none', 'recipient', 'button', [80, 24], { buttonText: 'string' }, ['value', 'locked']),
  kind(
    'signerAttachment',
    'signerAttachment',
    'none',
    'recipient',
    'attachment',
    [24, 24],
    { optional: 'boolean' },
    without.mark,
  ),
] as const;

/** `signHere`, `text`, `checkbox`, …: every kind of tab signrun knows. */
export type TabKindName = (typeof entries)[number]['name'];

/** Each kind in words (a Record: a new kind without its words does not compile). */
const words: Readonly<Record<TabKindName, TabKindWords>> = {
  signHere: { one: 'sign here', article: 'a' },
  initialHere: { one: 'initial here', article: 'an' },
  dateSigned: { one: 'date signed', article: 'a' },
  fullName: { one: 'full name', article: 'a' },
  emailAddress: { one: 'email address', article: 'an' },
  company: { one: 'company', article: 'a' },
  title: { one: 'title', article: 'a' },
  text: { one: 'text', article: 'a' },
  number: { one: 'number', article: 'a' },
  date: { one: 'date', article: 'a' },
  checkbox: { one: 'checkbox', article: 'a' },
  list: { one: 'list', article: 'a' },
  radioGroup: { one: 'radio group', article: 'a' },
  note: { one: 'note', article: 'a' },
  formula: { one: 'formula', article: 'a' },
  approve: { one: 'approve', article: 'an' },
  decline: { one: 'decline', article: 'a' },
  email: { one: 'email', article: 'an' },
  ssn: { one: 'SSN', article: 'an' },
  zip: { one: 'ZIP code', article: 'a' },
  currency: { one: 'currency', article: 'a' },
  phoneNumber: { one: 'phone number', article: 'a' },
  firstName: { one: 'first name', article: 'a' },
  lastName: { one: 'last name', article: 'a' },
  envelopeId: { one: 'envelope ID', article: 'an' },
  view: { one: 'view', article: 'a' },
  signerAttachment: { one: 'signer attachment', article: 'a' },
};

/** `signHereTabs`, `textTabs`, …: the members of a recipient's `tabs` that signrun models. */
export type TabCollection = (typeof entries)[number]['collection'];

/** Every tab kind, in catalogue order. */
export const tabKinds: readonly TabKind[] = entries.map((k) => ({ ...k, words: words[k.name] }));

const byName = new Map<string, TabKind>(tabKinds.map((k) => [k.name, k]));
const byCollection = new Map<string, TabKind>(tabKinds.map((k) => [k.collection, k]));

/** The entry of a kind. */
export function tabKind(name: TabKindName): TabKind {
  return byName.get(name)!;
}

/** The kind whose list is `collection` in a recipient's `tabs` (`signHereTabs` → signHere), if signrun knows it. */
export function tabKindOfCollection(collection: string): TabKind | undefined {
  return byCollection.get(collection);
}

/**
 * The kind a job file's list form of `tabs` means (`tabs: [{…}]`, signrun's
 * first shorthand): sign-here tabs.
 */
export const shorthandTabKind: TabKindName = 'signHere';

/**
 * `#/definitions/prefillTabs`: the sender's own tabs, filled before sending,
 * kept under the envelope's documents rather than under a recipient. Its
 * members are collections of the kinds listed here.
 */
export const prefillCollection = 'prefillTabs';
export const prefillKinds: readonly TabKindName[] = [
  'text',
  'number',
  'date',
  'checkbox',
  'radioGroup',
  'email',
  'ssn',
  'zip',
  'currency',
];
