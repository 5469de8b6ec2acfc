import {
  tabsByKind,
  tabsObject,
  tabKinds,
  formDataItemOf,
  listText,
  tabMembers,
  wireTrue,
  type FormDataItem,
  type KindedTab,
  type Tabs,
} from '../../../../envelope/index.js';
import { stampedPlace, type TabToDraw } from '../../../../pdf/index.js';
import { formulaValues } from './formula.js';

/** Who signed, as the service-filled tabs show it. */
export interface Signing {
  name: string;
  email: string;
  envelopeId: string;
  signedAt: Date;
}

/** DocuSign's default date format for a date signed (`M/d/yyyy`), in UTC. */
export function dateSignedText(when: Date): string {
  return `${when.getUTCMonth() + 1}/${when.getUTCDate()}/${when.getUTCFullYear()}`;
}

/** The value a tab filled by the service takes when its recipient signs; undefined for the others. */
function serviceValue(kindName: string, signing: Signing): string | undefined {
  const words = signing.name.trim().split(/\s+/);
  switch (kindName) {
    case 'dateSigned':
      return dateSignedText(signing.signedAt);
    case 'fullName':
      return signing.name;
    case 'firstName':
      return words[0] ?? '';
    case 'lastName':
      return words.length > 1 ? words.at(-1)! : '';
    case 'emailAddress':
      return signing.email;
    case 'envelopeId':
      return signing.envelopeId;
    default:
      return undefined;
  }
}

/** Rebuilds a tabs object from its kinded tabs, keeping collections the catalogue does not model. */
function rebuild(original: Tabs, tabs: KindedTab[]): Tabs {
  const known = new Set(tabKinds.map((k) => k.collection));
  return {
    ...Object.fromEntries(Object.entries(original).filter(([collection]) => !known.has(collection))),
    ...tabsObject(tabs.map(({ kind, tab }) => ({ kind: kind.name, tab }))),
  };
}

/**
 * The tabs after signing: those the service fills (date signed, names,
 * email, envelope id) get their value, then formula tabs are computed from
 * the values of the tabs their `[TabLabel]`s name.
 */
export function fillServiceTabs(tabs: Tabs, signing: Signing): Tabs {
  const filled = tabsByKind(tabs).map(({ kind, tab }) => {
    const value = kind.filledBy === 'service' ? serviceValue(kind.name, signing) : undefined;
    return { kind, tab: value === undefined ? tab : { ...tab, value } };
  });
  return rebuild(tabs, computeFormulas(filled));
}

/** Formula tabs with their results (formula.ts, formulaValues: the signing page computes them with the same code). */
export function computeFormulas(tabs: KindedTab[]): KindedTab[] {
  const values = formulaValues(
    tabs.map(({ kind, tab }) => ({
      label: tab.tabLabel,
      value: tab.value,
      formula: kind.valueType === 'formula' && typeof tab['formula'] === 'string' ? tab['formula'] : undefined,
      roundDecimalPlaces: tab['roundDecimalPlaces'],
    })),
  );
  return tabs.map(({ kind, tab }, i) => {
    const value = values[i];
    return value === undefined || value === tab.value ? { kind, tab } : { kind, tab: { ...tab, value } };
  });
}

/** A person's initials from their adopted signature ("Ada Lovelace" → "AL"). */
export function initialsOf(name: string): string {
  return name
    .trim()
    .split(/\s+/)
    .map((w) => [...w][0] ?? '')
    .join('')
    .toUpperCase();
}

/**
 * What a recipient's signing stamps on one document besides the signature
 * tabs (which stamp-signatures.ts draws as always): every positioned tab of
 * the other kinds with its final value — initials, text-like values,
 * checkboxes, lists, radios. Buttons and attachments leave nothing on the page.
 */
export function valueTabsToDraw(
  tabs: Tabs,
  documentId: string,
  signed: { signatureName: string; signedAt: Date },
): TabToDraw[] {
  const out: TabToDraw[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    const drawing = kind.drawing;
    if (drawing === 'signature' || drawing === 'button' || drawing === 'attachment') continue;
    if (drawing === 'radio') {
      const radios = tabMembers(tab, 'radios');
      for (const radio of radios) {
        // A radio sits on its group's document unless it names its own (as the preview and the signing page read it).
        const at = stampedPlace(kind.name, { documentId: tab.documentId, ...radio }, documentId);
        if (at === undefined) continue;
        const value = typeof radio['value'] === 'string' ? radio['value'] : '';
        out.push({ kind: kind.name, ...at, value, selected: wireTrue(radio['selected']) });
      }
      continue;
    }
    const at = stampedPlace(kind.name, tab, documentId);
    if (at === undefined) continue;
    const base = { kind: kind.name, ...at };
    if (drawing === 'initials') {
      // No signature adopted (an approve tab: DocuSign completes the recipient unsigned): the box stays blank, no frame, no date.
      if (signed.signatureName !== '')
        out.push({ ...base, value: initialsOf(signed.signatureName), signedAt: signed.signedAt });
    } else if (drawing === 'checkbox') out.push({ ...base, selected: wireTrue(tab['selected']) });
    else if (drawing === 'list') out.push({ ...base, value: listText(tab) });
    else out.push({ ...base, value: tab.value ?? '' });
  }
  return out;
}

/** A recipient's tabs as DocuSign's form data lists them: each tab that holds a value (tab-readings.ts). */
export function formDataItems(tabs: Tabs): FormDataItem[] {
  return tabsByKind(tabs).flatMap(({ kind, tab }) => formDataItemOf(kind, tab) ?? []);
}
