import { tabsByKind, wireTrue, type Tabs } from '../../envelope/index.js';
import { fieldName } from '../esignature/envelopes/tabs/entered-values.js';
import type { PlaceOf, PlaceOnPage } from '../esignature/envelopes/tabs/page-places.js';

/** The tab kinds drawn as a button or an attachment box: they hold no value, the signer acts on them. */
export type ButtonKind = 'approve' | 'decline' | 'view' | 'signerAttachment';

const buttonKinds: ReadonlySet<string> = new Set<ButtonKind>(['approve', 'decline', 'view', 'signerAttachment']);

/** What a view tab posts once the signer opened it (the page script sets it: view-tabs are clicked). */
export const viewedValue = 'viewed';

/** One button-like tab of the signer, as the page shows it. */
export interface ButtonTab {
  kind: ButtonKind;
  /** The form field a view tab posts once opened (`tab.<tabId>`). */
  name: string;
  /** Its `buttonText`, else undefined (the page says "Approve", "Decline", "View" in the signer's language). */
  buttonText: string | undefined;
  /** The tab's label for messages: its tabLabel, else its button text. */
  tabLabel: string | undefined;
  /** A view tab that must be opened before finishing (DocuSign's `required` on `view`). */
  required: boolean;
  /** The document a view tab opens: the one it sits on. */
  documentId: string;
  onPage?: PlaceOnPage;
}

/**
 * The signer's approve, decline, view and signer-attachment tabs, with their
 * place on the documents (as the preview draws them): `signingFields` lists
 * only tabs that hold a value, and these hold none.
 */
export function buttonTabs(tabs: Tabs, placeOf: PlaceOf = () => undefined): ButtonTab[] {
  const out: ButtonTab[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    if (!buttonKinds.has(kind.name)) continue;
    const onPage = placeOf(kind.name, tab);
    const text =
      typeof tab['buttonText'] === 'string' && tab['buttonText'].trim() !== '' ? tab['buttonText'] : undefined;
    const label = typeof tab.tabLabel === 'string' && tab.tabLabel.trim() !== '' ? tab.tabLabel : undefined;
    out.push({
      kind: kind.name as ButtonKind,
      name: fieldName(tab),
      buttonText: text,
      tabLabel: label ?? text,
      required: kind.name === 'view' && wireTrue(tab['required']),
      documentId: String(tab.documentId ?? ''),
      ...(onPage === undefined ? {} : { onPage }),
    });
  }
  return out;
}

/** Whether the signer has an approve or a decline tab: then they finish (or decline) on it, not by placing a signature. */
export function actsOnButtons(tabs: Tabs): boolean {
  return buttonTabs(tabs).some((b) => b.kind === 'approve' || b.kind === 'decline');
}

/** The required view tabs the form does not say were opened: their labels (the view's own words when it has none). */
export function unopenedViews(tabs: Tabs, form: Readonly<Record<string, string>>, fallback: string): string[] {
  return buttonTabs(tabs)
    .filter((b) => b.required && form[b.name] !== viewedValue)
    .map((b) => b.tabLabel ?? fallback);
}
