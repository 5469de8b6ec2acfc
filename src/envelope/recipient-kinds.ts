/**
 * DocuSign's recipient kinds, one entry each: the catalogue read by the job
 * loader, the client's request builder, the sandbox's parser, serialiser and
 * lifecycle. Nothing outside src/envelope names a recipient collection.
 *
 * Wire names are those of DocuSign's v2.1 Swagger
 * (`#/definitions/EnvelopeRecipients`); a test walks the catalogue against it.
 */

/**
 * What makes a recipient of this kind done, so that the envelope can
 * complete: signing (signers, in-person signers, witnesses), opening the
 * documents (certified delivery), passing the envelope on (agents, editors,
 * intermediaries), or nothing (a carbon copy only receives).
 */
export type RecipientCompletesOn = 'signing' | 'viewing' | 'routing' | 'nothing';

export interface RecipientKind {
  /** The kind's name in signrun (Swagger's definition name): `signer`, `carbonCopy`, … */
  readonly name: RecipientKindName;
  /** The member of `recipients` that lists this kind: `signers`, `carbonCopies`, … */
  readonly collection: RecipientCollection;
  /** `#/definitions/<definition>` of DocuSign's Swagger. */
  readonly definition: string;
  /** Signs (has sign-here tabs, a signature in the certificate). */
  readonly signs: boolean;
  /** May be an embedded (captive) recipient: a `clientUserId` and a recipient view. */
  readonly mayBeEmbedded: boolean;
  /** Signs in front of a host (`hostName`, `hostEmail`; `signerName` is who signs). */
  readonly needsHost: boolean;
  /** Signs for another recipient (`witnessFor`). */
  readonly signsFor: boolean;
  /** May carry tabs. */
  readonly hasTabs: boolean;
  readonly completesOn: RecipientCompletesOn;
  /** The kind's role in words, as a certificate of completion names it: "Signer", "Carbon copy", … */
  readonly role: string;
  /** The kind in words for a sentence: one, many, and the article ("an in-person signer", "carbon copies"). */
  readonly words: RecipientKindWords;
}

/** A recipient kind in words, lower case as in a sentence. */
export interface RecipientKindWords {
  readonly one: string;
  readonly many: string;
  readonly article: 'a' | 'an';
}

/** What a kind is unless its entry says otherwise: it neither signs nor may be embedded, has no host, no tabs. */
const kind = <const N extends string, const C extends string>(
  name: N,
  collection: C,
  role: string,
  words: RecipientKindWords,
  completesOn: RecipientCompletesOn,
  traits: Partial<Pick<RecipientKind, 'signs' | 'mayBeEmbedded' | 'needsHost' | 'signsFor' | 'hasTabs'>> = {},
) => ({
  role,
  words,
  name,
  collection,
  // Swagger names each kind's definition as signrun names the kind.
  definition: name as string,
  signs: false,
  mayBeEmbedded: false,
  needsHost: false,
  signsFor: false,
  hasTabs: false,
  ...traits,
  completesOn,
});

/** The catalogue, in the order of the design's contract. */
const entries = [
  kind('signer', 'signers', 'Signer', { one: 'signer', many: 'signers', article: 'a' }, 'signing', {
    signs: true,
    mayBeEmbedded: true,
    hasTabs: true,
  }),
  kind(
    'carbonCopy',
    'carbonCopies',
    'Carbon copy',
    { one: 'carbon copy', many: 'carbon copies', article: 'a' },
    'nothing',
  ),
  kind(
    'certifiedDelivery',
    'certifiedDeliveries',
    'Certified delivery',
    { one: 'certified delivery', many: 'certified deliveries', article: 'a' },
    'viewing',
    { mayBeEmbedded: true },
  ),
  kind(
    'inPersonSigner',
    'inPersonSigners',
    'In person signer',
    { one: 'in-person signer', many: 'in-person signers', article: 'an' },
    'signing',
    {
      signs: true,
      mayBeEmbedded: true,
      needsHost: true,
      hasTabs: true,
    },
  ),
  kind('witness', 'witnesses', 'Witness', { one: 'witness', many: 'witnesses', article: 'a' }, 'signing', {
    signs: true,
    mayBeEmbedded: true,
    signsFor: true,
    hasTabs: true,
  }),
  kind('editor', 'editors', 'Editor', { one: 'editor', many: 'editors', article: 'an' }, 'routing'),
  kind('agent', 'agents', 'Agent', { one: 'agent', many: 'agents', article: 'an' }, 'routing'),
  kind(
    'intermediary',
    'intermediaries',
    'Intermediary',
    { one: 'intermediary', many: 'intermediaries', article: 'an' },
    'routing',
  ),
] as const;

/** `signer`, `carbonCopy`, …: every kind of recipient signrun knows. */
export type RecipientKindName = (typeof entries)[number]['name'];

/** `signers`, `carbonCopies`, …: the members of a recipients object that signrun models. */
export type RecipientCollection = (typeof entries)[number]['collection'];

/** Every recipient kind, in catalogue order. */
export const recipientKinds: readonly RecipientKind[] = entries;

const byName = new Map<string, RecipientKind>(entries.map((k) => [k.name, k]));
const byCollection = new Map<string, RecipientKind>(entries.map((k) => [k.collection, k]));

/** The entry of a kind. */
export function recipientKind(name: RecipientKindName): RecipientKind {
  return byName.get(name)!;
}

/** The kind of that name, when it is one (a name read from a file or an answer). */
export function recipientKindNamed(name: string): RecipientKind | undefined {
  return byName.get(name);
}

/**
 * True when the envelope waits for recipients of this kind to act (sign,
 * view, pass it on); false for a carbon copy, which only receives and never
 * holds the routing or the envelope's completion.
 */
export function recipientMustAct(kind: RecipientKind): boolean {
  return kind.completesOn !== 'nothing';
}

/**
 * Whether a witness may sign for a recipient of this kind: one who signs in
 * their own name (a signer, an in-person signer), never another witness — so
 * no two witnesses can wait for each other for ever (W2 for W3, W3 for W2).
 * `validate` (SR_WITNESS_FOR_UNKNOWN) and the sandbox (400 at creation) ask it.
 */
export function mayBeWitnessed(kind: RecipientKind): boolean {
  return kind.signs && !kind.signsFor;
}

/** The kind listed under `collection` in a recipients object, if signrun knows it. */
export function recipientKindOfCollection(collection: string): RecipientKind | undefined {
  return byCollection.get(collection);
}

/**
 * The kind a job file's list form of `recipients` means, and the kind of a
 * template role: signers (the only kind signrun had before the catalogue).
 */
export const shorthandRecipientKind: RecipientKindName = 'signer';

/**
 * Recipient collections DocuSign has that signrun does not model yet (a
 * notary, an electronic seal): a service may list them; signrun neither sends
 * nor routes them.
 */
export const unmodelledRecipientCollections: readonly string[] = ['seals', 'notaries'];
