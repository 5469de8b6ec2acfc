/**
 * The sandbox routes every recipient kind of the catalogue
 * (src/envelope/recipient-kinds.ts). What it refuses is a collection
 * DocuSign has and signrun does not model (a seal, a notary): stored, it
 * would never be routed, so a creation request naming one is answered 400.
 */

/** `recipients.<collection>: the sandbox does not route <collection>.` — the refusal's wording, in one place. */
export function unroutedRecipientsMessage(collection: string): string {
  return `recipients.${collection}: the sandbox does not route ${collection} (signrun does not model them).`;
}
