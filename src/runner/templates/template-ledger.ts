import type { AccountClient } from '../../client/esignature-client.js';
import type { EnvelopeTemplate } from '../../envelope/wire.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { digestFieldName, identityFieldName } from '../identity.js';

/** A template of the account that carries a signrun identity. */
export interface MarkedTemplate {
  templateId: string;
  /** `<job>/<key>#template`. */
  identity: string;
  /** The digest signrun wrote with it (absent: not written by signrun). */
  digest?: string;
  /** ISO 8601; the earliest template of an identity is the one that counts. */
  created: string;
}

/** DocuSign's largest page of templates is 2,000; 100 keeps each answer small. */
const pageSize = 100;
/** A listing longer than this is not an account's templates (a service that pages for ever): stopped. */
const maxPages = 500;

/**
 * The account's templates kept as code, by identity: one paged listing
 * (GET …/templates?include=custom_fields) instead of one look-up per
 * template. Of several templates of one identity (racing runs, a create
 * whose answer was lost) the earliest created counts — every runner
 * computes the same one — and the others are duplicates to delete.
 */
export class TemplateLedger {
  readonly #account: AccountClient;
  #byIdentity = new Map<string, MarkedTemplate[]>();
  /** Listing calls made. */
  calls = 0;

  constructor(account: AccountClient) {
    this.#account = account;
  }

  /** Reads the whole listing again (before planning; after a create, to confirm it). */
  async load(tag = 'templates'): Promise<void> {
    const found = new Map<string, MarkedTemplate[]>();
    let start = 0;
    const seen = new Set<string>();
    for (let page = 0; ; page += 1) {
      if (page >= maxPages)
        throw new SignrunError(
          'SR_TEMPLATE_FAILED',
          `the template listing did not end after ${maxPages} pages of ${pageSize}: stopped`,
        );
      const answer = await this.#account.listTemplates(
        { startPosition: start, count: pageSize, include: ['custom_fields'] },
        { tag },
      );
      this.calls += 1;
      const items = answer.envelopeTemplates ?? [];
      let fresh = 0;
      for (const item of items) {
        if (!item.templateId || seen.has(item.templateId)) continue;
        seen.add(item.templateId);
        fresh += 1;
        const marked = markedOf(item);
        if (!marked) continue;
        const list = found.get(marked.identity) ?? [];
        list.push(marked);
        found.set(marked.identity, list);
      }
      const total = Number(answer.totalSetSize ?? items.length);
      start += items.length;
      // The end: a short page, the total reached, or a page with nothing new (a service repeating itself).
      if (items.length < pageSize || start >= total || fresh === 0) break;
    }
    for (const list of found.values())
      list.sort((a, b) => a.created.localeCompare(b.created) || a.templateId.localeCompare(b.templateId));
    this.#byIdentity = found;
  }

  /** The template of this identity that counts (the earliest created), if the account has one. */
  winnerOf(identity: string): MarkedTemplate | undefined {
    return this.#byIdentity.get(identity)?.[0];
  }

  /** The other templates of this identity: duplicates. */
  duplicatesOf(identity: string): MarkedTemplate[] {
    return this.#byIdentity.get(identity)?.slice(1) ?? [];
  }
}

/** The identity and digest a listed template carries, if signrun marked it. */
function markedOf(template: EnvelopeTemplate): MarkedTemplate | undefined {
  const fields = template.customFields?.textCustomFields ?? [];
  const identity = fields.find((f) => f.name === identityFieldName)?.value;
  if (!identity?.endsWith('#template') || !template.templateId) return undefined;
  const digest = fields.find((f) => f.name === digestFieldName)?.value;
  return {
    templateId: template.templateId,
    identity,
    ...(digest ? { digest } : {}),
    created: template.created ?? template.envelopeTemplateDefinition?.created ?? '',
  };
}
