/**
 * What a tab says, read from its wire form: DocuSign's booleans, the chosen
 * item of a list or radio group, and a tab as form data lists it. The
 * sandbox answers `form_data` with these readings and `sync` writes the
 * entered values with them, so what the service shows and what signrun
 * stores cannot disagree.
 */
import type { TabKind } from './tab-kinds.js';
import type { WireTab } from './wire.js';

/** DocuSign's booleans arrive as strings ("true", "TRUE") or as booleans. */
export function wireTrue(value: unknown): boolean {
  return value === true || (typeof value === 'string' && value.trim().toLowerCase() === 'true');
}

/** A list tab's `listItems` or a radio group's `radios`, the objects only. */
export function tabMembers(tab: WireTab, member: 'listItems' | 'radios'): Record<string, unknown>[] {
  const list = tab[member];
  return Array.isArray(list)
    ? list.filter((m): m is Record<string, unknown> => typeof m === 'object' && m !== null && !Array.isArray(m))
    : [];
}

const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** The text a list tab shows: its selected item's text, else the item whose value is the tab's value. */
export function listText(tab: WireTab): string {
  const items = tabMembers(tab, 'listItems');
  const chosen = items.find((i) => wireTrue(i['selected'])) ?? items.find((i) => tab.value && i['value'] === tab.value);
  return text(chosen?.['text']) ?? text(chosen?.['value']) ?? tab.value ?? '';
}

/** The value of a list tab's chosen item (the selected one, else the tab's value). */
export function listValue(tab: WireTab): string {
  const chosen = tabMembers(tab, 'listItems').find((i) => wireTrue(i['selected']));
  return text(chosen?.['value']) ?? text(chosen?.['text']) ?? tab.value ?? '';
}

/** `#/definitions/formDataItem`: a tab's label and value as form data lists them. */
export interface FormDataItem {
  name: string;
  value: string;
  /** A list's chosen item's text (its value is in `value`). */
  listSelectedValue?: string;
}

/**
 * One tab as DocuSign's form data lists it, or undefined for a tab that
 * holds no value (signatures, initials, buttons, attachments): by its
 * tabLabel (a radio group by its groupName, with the selected radio's
 * value), a checkbox "X" when ticked, a list its chosen value with its text
 * as `listSelectedValue`. A tab without a label is named by its kind.
 */
export function formDataItemOf(kind: TabKind, tab: WireTab): FormDataItem | undefined {
  switch (kind.valueType) {
    case 'none':
      return undefined;
    case 'radio': {
      const chosen = tabMembers(tab, 'radios').find((r) => wireTrue(r['selected']));
      return { name: text(tab['groupName']) ?? '', value: text(chosen?.['value']) ?? '' };
    }
    case 'boolean':
      return { name: tab.tabLabel ?? kind.name, value: wireTrue(tab['selected']) ? 'X' : '' };
    case 'list':
      return { name: tab.tabLabel ?? kind.name, value: listValue(tab), listSelectedValue: listText(tab) };
    default:
      return { name: tab.tabLabel ?? kind.name, value: tab.value ?? '' };
  }
}
