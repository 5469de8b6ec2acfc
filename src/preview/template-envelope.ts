import { fromFileRoot } from '../jobs/index.js';
import type { ResolvedEnvelope, ResolvedRecipient, ResolvedTab, ResolvedTemplate } from '../jobs/model.js';

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
export function envelopeFromTemplate(envelope: ResolvedEnvelope, template: ResolvedTemplate): ResolvedEnvelope {
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
      const merged: ResolvedTab = { ...tab, written: [...root, ...tab.written] };
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
