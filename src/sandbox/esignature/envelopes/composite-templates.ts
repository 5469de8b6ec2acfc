import { tabsByKind, tabsObject, type Tabs } from '../../../envelope/index.js';
import { ApiError, apiErrors } from '../../platform/http/api-error.js';
import type { BlobStore } from '../../platform/db/blob-store.js';
import type { DocGenIntake } from './documents/document-intake.js';
import type { DocumentWork } from '../document-work/document-work.js';
import { quickPageCount } from '../../platform/pdf/page-count.js';
import type { TemplateRoleRecord, TemplatesRepository } from '../templates/repository.js';
import { fillRoleTabs } from './tabs/role-tabs.js';
import type { IncomingCompositeTemplate } from './wire/composite-definition.js';
import type { IncomingDocument, IncomingRecipient } from './wire/envelope-definition.js';

/** A document of the envelope to be, already a PDF in the blob store. */
export interface SourceDocument {
  documentId: string;
  name: string;
  sha256: string;
  size: number;
  pages: number | null;
}

/**
 * A recipient of the envelope to be, with what the templates gave it: its
 * final recipientId, routing order and tabs (documentIds the envelope's),
 * and a template's access code hash when the request gave none.
 */
export interface SourcePerson extends IncomingRecipient {
  recipientId: string;
  routingOrder: number;
  tabs: Tabs;
  accessCodeHash: string | null;
}

/** What composite templates make of an envelope: its documents, recipients, and the templates' message. */
export interface CompositeResult {
  documents: SourceDocument[];
  people: SourcePerson[];
  emailSubject: string | undefined;
  emailBlurb: string | undefined;
}

export interface CompositeContext {
  accountId: string;
  blobs: BlobStore;
  templates: TemplatesRepository;
  docGen?: DocGenIntake;
  /** Where documents are converted (off the event loop in `serve`). */
  work: DocumentWork;
}

/**
 * An envelope from composite templates, as DocuSign documents them
 * (developers.docusign.com, "Composite templates"; the "Pro tips" posts):
 *
 * - each composite contributes documents: its own `document` if it has one
 *   (the templates' tabs then apply to it), else those of the first template
 *   in `sequence` order that has documents ("first in wins");
 * - a composite's recipients are its server templates' recipients, and an
 *   inline template's recipient with a server role's `roleName` fills that
 *   role: its name, email, ids and fields win, its tabs fill the role's tabs
 *   by label, the role's other tabs apply ("last in wins" for everything
 *   but documents); an inline recipient with no such role is added as is;
 *   a role nobody filled (no name or email) is left out;
 * - the envelope's documents are the composites' in order; a documentId
 *   already taken by an earlier composite gets the next free number, and that
 *   composite's tabs follow it (DocuSign's own examples reuse documentId 1
 *   in every composite);
 * - a recipientId used in several composites is one recipient (tabs from
 *   each); the same id for two different people is refused.
 */
export async function resolveComposites(
  composites: readonly IncomingCompositeTemplate[],
  context: CompositeContext,
): Promise<CompositeResult> {
  const documents: SourceDocument[] = [];
  const people: SourcePerson[] = [];
  let emailSubject: string | undefined;
  let emailBlurb: string | undefined;
  for (const [index, composite] of composites.entries()) {
    const field = `compositeTemplates[${index}]`;
    const layers = composite.templates.map((t) => {
      if (t.kind === 'inline') return { ...t, roles: [] as TemplateRoleRecord[] };
      const template = context.templates.get(context.accountId, t.templateId);
      if (!template) throw apiErrors.templateNotFound();
      // Last in wins: a later template's message replaces an earlier one's.
      emailSubject = template.emailSubject || emailSubject;
      emailBlurb = template.emailBlurb || emailBlurb;
      return {
        ...t,
        template,
        roles: context.templates.roles(template.id),
        stored: context.templates.documents(template.id),
      };
    });

    // Documents: the composite's own, else the first template (by sequence) that has some.
    let local: SourceDocument[] = [];
    if (composite.document) local = [await intake(composite.document, context)];
    else {
      for (const layer of layers) {
        if (layer.kind === 'server' && layer.stored.length > 0) {
          local = layer.stored.map(({ documentId, name, sha256, size, pages }) => ({
            documentId,
            name,
            sha256,
            size,
            pages,
          }));
          break;
        }
        if (layer.kind === 'inline' && layer.documents.length > 0) {
          const ordered = [...layer.documents].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
          for (const d of ordered) local.push(await intake(d, context));
          break;
        }
      }
    }
    const ids = new Map<string, string>();
    for (const d of local) {
      const id = documents.some((x) => x.documentId === d.documentId) ? nextFreeId(documents) : d.documentId;
      ids.set(d.documentId, id);
      documents.push({ ...d, documentId: id });
    }

    // Recipients: roles of the server templates, filled or joined by the inline templates' recipients.
    const slots: SourcePerson[] = [];
    for (const layer of layers) {
      if (layer.kind === 'server') {
        for (const role of layer.roles) {
          const same = findRole(slots, role.roleName);
          if (same) same.tabs = joinTabs(same.tabs, role.tabs);
          else slots.push(personOfRole(role));
        }
      } else {
        for (const p of layer.recipients) {
          const role = p.roleName ? findRole(slots, p.roleName) : undefined;
          if (role) Object.assign(role, fill(role, p, layer.fillsRolesOnly === true));
          else
            slots.push({
              ...p,
              recipientId: p.recipientId ?? String(slots.length + 1),
              routingOrder: p.routingOrder ?? 1,
              tabs: p.tabs ?? {},
              accessCodeHash: null,
            });
        }
      }
    }
    for (const slot of slots) {
      if (!slot.name || !slot.email) {
        // An unfilled role is a placeholder: DocuSign leaves it out of the envelope.
        if (slot.roleName) continue;
        throw apiErrors.invalidBody(`${field}: recipient ${slot.recipientId} needs a name and an email.`);
      }
      const person = { ...slot, tabs: renumberTabs(slot.tabs, ids, field) };
      const known = people.find((x) => x.recipientId === person.recipientId);
      if (!known) people.push(person);
      else if (samePerson(known, person)) known.tabs = joinTabs(known.tabs, person.tabs);
      else
        throw apiErrors.invalidBody(
          `${field}: recipientId ${person.recipientId} is ${person.name} <${person.email}> here and ${known.name} <${known.email}> in an earlier composite template.`,
        );
    }
  }
  return { documents, people, emailSubject, emailBlurb };
}

/** A document of the request as the sandbox keeps it: converted to PDF, its bytes in the blob store. */
async function intake(
  document: IncomingDocument,
  { blobs, docGen, work }: Pick<CompositeContext, 'blobs' | 'docGen' | 'work'>,
): Promise<SourceDocument> {
  const bytes = await work.convert(document, docGen);
  return {
    documentId: document.documentId,
    name: document.name,
    sha256: blobs.put(bytes),
    size: bytes.length,
    pages: quickPageCount(bytes),
  };
}

function nextFreeId(documents: readonly SourceDocument[]): string {
  return String(Math.max(0, ...documents.map((d) => Number(d.documentId) || 0)) + 1);
}

function findRole(slots: SourcePerson[], roleName: string): SourcePerson | undefined {
  if (!roleName) return undefined;
  const wanted = roleName.toLowerCase();
  return slots.find((s) => s.roleName !== undefined && s.roleName.toLowerCase() === wanted);
}

/** A template's recipient, as an envelope would have it before anyone fills the role. */
function personOfRole(role: TemplateRoleRecord): SourcePerson {
  const f = role.fixed;
  return {
    kind: role.kind,
    recipientId: role.recipientId,
    name: f.name ?? '',
    email: f.email ?? '',
    details: { ...f.details },
    accessCode: undefined,
    accessCodeHash: role.accessCodeHash,
    clientUserId: f.clientUserId,
    routingOrder: Number(role.routingOrder) || 1,
    roleName: role.roleName || undefined,
    tabs: role.tabs,
    emailSubject: f.emailSubject,
    emailBody: f.emailBody,
    supportedLanguage: f.supportedLanguage,
  };
}

/**
 * A role filled by an inline recipient (or a templateRoles entry, which
 * keeps the role's kind): what it gives wins, its tabs fill the role's by label.
 */
export function fill(role: SourcePerson, p: IncomingRecipient, keepKind: boolean): SourcePerson {
  return {
    kind: keepKind ? role.kind : p.kind,
    recipientId: p.recipientId ?? role.recipientId,
    name: p.name || role.name,
    email: p.email || role.email,
    details: { ...role.details, ...p.details },
    accessCode: p.accessCode,
    // A code given now replaces the template's.
    accessCodeHash: p.accessCode === undefined ? role.accessCodeHash : null,
    clientUserId: p.clientUserId ?? role.clientUserId,
    routingOrder: p.routingOrder ?? role.routingOrder,
    roleName: role.roleName,
    tabs: p.tabs === undefined ? role.tabs : fillRoleTabs(role.tabs, p.tabs),
    emailSubject: p.emailSubject ?? role.emailSubject,
    emailBody: p.emailBody ?? role.emailBody,
    supportedLanguage: p.supportedLanguage ?? role.supportedLanguage,
  };
}

function samePerson(a: SourcePerson, b: SourcePerson): boolean {
  return a.name === b.name && a.email.toLowerCase() === b.email.toLowerCase();
}

/** Both tab objects' tabs, kind by kind (collections signrun does not model: the first's). */
function joinTabs(a: Tabs, b: Tabs): Tabs {
  return {
    ...b,
    ...a,
    ...tabsObject([...tabsByKind(a), ...tabsByKind(b)].map(({ kind, tab }) => ({ kind: kind.name, tab }))),
  };
}

/** Tabs with the envelope's documentIds; a tab on a document the composite does not contribute is refused. */
function renumberTabs(tabs: Tabs, ids: ReadonlyMap<string, string>, field: string): Tabs {
  const moved = tabsByKind(tabs).map(({ kind, tab }) => {
    if (tab.documentId === undefined) return { kind: kind.name, tab };
    const documentId = ids.get(String(tab.documentId));
    if (documentId === undefined)
      throw new ApiError(
        400,
        'INVALID_DOCUMENT_ID',
        `${field}: a ${kind.collection} tab is on documentId ${String(tab.documentId)}, which this composite template does not contribute.`,
      );
    return { kind: kind.name, tab: { ...tab, documentId } };
  });
  return { ...tabs, ...tabsObject(moved) };
}
