import { fromFileRoot } from '../jobs/index.js';
import type {
  ResolvedDocument,
  ResolvedEnvelope,
  ResolvedRecipient,
  ResolvedTab,
  ResolvedTemplate,
} from '../jobs/model.js';

/**
 * The envelope DocuSign makes from a template of the job file and an
 * envelope's templateRoles (service-api.md 2.5), to preview it as its
 * signers will see it: the template's documents; each role filled by the
 * templateRoles entry of its roleName (or the person the role fixes; a role
 * nobody fills is left out, as DocuSign leaves it out), with the role's tabs
 * — a filler's tab of the same label gives its value, and the filler's own
 * placed tabs are added. A template tab keeps where it is written in the
 * template (from the file's root), so a warning names its line.
 */
export function envelopeFromTemplate(
  envelope: ResolvedEnvelope,
  template: ResolvedTemplate,
  /** `envelope`: the template is not in the envelope's file (a stored one, read for the preview): its tabs' warnings name the envelope's line. */
  writtenIn: 'file' | 'envelope' = 'file',
): ResolvedEnvelope {
  const recipients: ResolvedRecipient[] = [];
  for (const role of template.recipients) {
    const filler = envelope.templateRoles.find((r) => r.roleName === role.roleName);
    if (!filler && (role.name === '' || role.email === '')) continue;
    const labelled = new Map<string, ResolvedTab>();
    for (const tab of filler?.tabs ?? []) {
      const label = tab.fields?.['tabLabel'];
      if (tab.place === undefined && label !== undefined) labelled.set(label, tab);
    }
    const root = [fromFileRoot, 'templates', template.index, ...role.written];
    const tabs: ResolvedTab[] = role.tabs.map((tab) => {
      const fill = tab.fields?.['tabLabel'] === undefined ? undefined : labelled.get(tab.fields['tabLabel']);
      const merged: ResolvedTab = { ...tab, written: writtenIn === 'file' ? [...root, ...tab.written] : [] };
      if (fill?.value !== undefined) merged.value = fill.value;
      if (fill?.fields) merged.fields = { ...tab.fields, ...fill.fields };
      return merged;
    });
    // The filler's tabs with a place of their own are added to the role's.
    if (filler)
      for (const tab of filler.tabs)
        if (tab.place !== undefined) tabs.push({ ...tab, written: [...filler.written, ...tab.written] });
    recipients.push({
      ...role,
      ...(filler ? { name: filler.name, email: filler.email } : {}),
      ...(filler?.clientUserId !== undefined ? { clientUserId: filler.clientUserId } : {}),
      ...(filler?.routingOrder !== undefined ? { routingOrder: filler.routingOrder } : {}),
      tabs,
      // Each tab's `written` above is whole: the recipient adds nothing to it.
      written: [],
    });
  }
  return {
    ...envelope,
    kind: 'documents',
    documents: template.documents,
    recipients,
    templateRoles: [],
  };
}

/**
 * The envelope DocuSign makes from several templates (`templates:`, sent as
 * compositeTemplates) to preview it: each template's documents in order,
 * then the added ones, numbered 1, 2, … as the service numbers them; each
 * person once, with the tabs of every role they fill (filled by label as for
 * one template) and their own placed tabs on the added documents; the added
 * recipients with theirs. `parts` are the envelope's templates, in order,
 * each read from the job file or (a stored one) from the account.
 */
export function envelopeFromComposite(
  envelope: ResolvedEnvelope,
  parts: ReadonlyArray<{ template: ResolvedTemplate; writtenIn: 'file' | 'envelope' }>,
): ResolvedEnvelope {
  const documents: ResolvedDocument[] = [];
  const people = new Map<string, ResolvedRecipient>();
  let next = 1;
  const personOf = (r: ResolvedRecipient) => `${r.name}\u0000${r.email}`;
  const add = (r: ResolvedRecipient, tabs: ResolvedTab[]) => {
    const known = people.get(personOf(r));
    if (known) known.tabs.push(...tabs);
    // Each tab's `written` is whole: the person adds nothing to it.
    else people.set(personOf(r), { ...r, written: [], tabs: [...tabs] });
  };
  // The fillers' label tabs fill each template's tabs; their placed tabs go on the added documents.
  const byLabel = {
    ...envelope,
    templateRoles: envelope.templateRoles.map((r) => ({ ...r, tabs: r.tabs.filter((t) => t.place === undefined) })),
  };
  for (const { template, writtenIn } of parts) {
    const single = envelopeFromTemplate(byLabel, template, writtenIn);
    const ids = new Map(single.documents.map((d) => [d.documentId, String(next++)]));
    documents.push(...single.documents.map((d) => ({ ...d, documentId: ids.get(d.documentId)! })));
    for (const r of single.recipients)
      add(
        r,
        r.tabs.map((t) => onDocuments(t, ids)),
      );
  }
  const ids = new Map(envelope.documents.map((d) => [d.documentId, String(next++)]));
  documents.push(...envelope.documents.map((d) => ({ ...d, documentId: ids.get(d.documentId)! })));
  for (const role of envelope.templateRoles) {
    const placed = role.tabs.filter((t) => t.place !== undefined);
    if (placed.length > 0)
      add(
        role,
        placed.map((t) => onDocuments({ ...t, written: [...role.written, ...t.written] }, ids)),
      );
  }
  for (const r of envelope.recipients)
    add(
      r,
      r.tabs.map((t) => onDocuments({ ...t, written: [...r.written, ...t.written] }, ids)),
    );
  return { ...envelope, kind: 'documents', documents, recipients: [...people.values()], templateRoles: [] };
}

/** A tab (and its radios) on the envelope's documents: its documentId as the envelope numbers it. */
function onDocuments(tab: ResolvedTab, ids: ReadonlyMap<string, string>): ResolvedTab {
  const place = <P extends ResolvedTab['place']>(p: P): P =>
    p !== undefined && 'documentId' in p && ids.has(p.documentId) ? { ...p, documentId: ids.get(p.documentId)! } : p;
  return {
    ...tab,
    ...(tab.place !== undefined ? { place: place(tab.place) } : {}),
    ...(tab.radios ? { radios: tab.radios.map((r) => ({ ...r, place: place(r.place) })) } : {}),
  };
}
