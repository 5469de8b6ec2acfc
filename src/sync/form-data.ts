import {
  formDataItemOf,
  recipientsByKind,
  tabsByKind,
  type EnvelopeRecipients,
  type TabKind,
  type WireTab,
} from '../envelope/index.js';
import type { FormDataJson, FormDataTab } from '../output/records.js';

/**
 * form-data.json of a completed envelope, from its recipients as the
 * service lists them with their tabs (`include_tabs=true`): every recipient
 * of every kind, each tab read as DocuSign's form data reads it
 * (src/envelope/tab-readings.ts), so the values are those the `form_data`
 * endpoint gives, with each tab's kind besides.
 */
export function formDataOf(
  envelopeId: string,
  status: string,
  readAt: string,
  recipients: EnvelopeRecipients,
): FormDataJson {
  return {
    envelopeId,
    status,
    readAt,
    recipients: recipientsByKind(recipients).map(({ kind, recipient: r }) => ({
      recipientId: r.recipientId ?? '',
      kind: kind.name,
      ...(r.name !== undefined ? { name: r.name } : {}),
      ...(r.email !== undefined ? { email: r.email } : {}),
      ...(r.roleName !== undefined && r.roleName !== '' ? { roleName: r.roleName } : {}),
      tabs: tabsByKind(r.tabs).map(({ kind: tabKind, tab }) => formDataTab(tabKind, tab)),
    })),
  };
}

function formDataTab(kind: TabKind, tab: WireTab): FormDataTab {
  const item = formDataItemOf(kind, tab);
  if (item === undefined) return { label: tab.tabLabel ?? kind.name, kind: kind.name, value: '' };
  const text = item.listSelectedValue;
  return {
    label: item.name,
    kind: kind.name,
    value: item.value,
    ...(text !== undefined && text !== item.value ? { text } : {}),
  };
}
