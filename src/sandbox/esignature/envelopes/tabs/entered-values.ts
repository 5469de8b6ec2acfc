import {
  tabsByKind,
  tabsObject,
  tabKinds,
  tabMembers,
  tabValueProblems,
  wireTrue,
  type TabDrawing,
  type TabKind,
  type Tabs,
  type WireTab,
} from '../../../../envelope/index.js';
import type { PlaceOf, PlaceOnPage } from './page-places.js';

/** A hidden field of a signing form that showed the fields (so an absent checkbox is an unticked one). */
export const fieldsShownField = 'fieldsShown';

/** The form field a tab's control posts: `tab.<tabId>`. */
export function fieldName(tab: WireTab): string {
  return `tab.${String(tab.tabId ?? '')}`;
}

/**
 * Whether a recipient must fill the tab before finishing: its `required`
 * when given, else DocuSign's default (text-like tabs, lists and radio
 * groups are required; checkboxes are not).
 */
export function isRequired(kind: TabKind, tab: WireTab): boolean {
  if (kind.filledBy !== 'recipient' || kind.valueType === 'none') return false;
  if (tab['required'] !== undefined) return wireTrue(tab['required']);
  // A radio group's `required` sits on its radios.
  if (kind.valueType === 'radio') {
    const radios = tabMembers(tab, 'radios');
    return radios.every((r) => r['required'] === undefined || wireTrue(r['required']));
  }
  return kind.valueType !== 'boolean';
}

/** Whether the recipient may change the tab: filled by them, and not locked by the sender. */
export function isEditable(kind: TabKind, tab: WireTab): boolean {
  if (kind.filledBy !== 'recipient' || kind.valueType === 'none' || kind.valueType === 'formula') return false;
  if (kind.valueType === 'radio') {
    const radios = tabMembers(tab, 'radios');
    return !radios.some((r) => wireTrue(r['locked']));
  }
  return !wireTrue(tab['locked']);
}

/**
 * The tab's label as the page names it: its tabLabel, a radio group's
 * groupName, else its kind in words ("Date signed"; never a wire name).
 */
export function labelOf(kind: TabKind, tab: WireTab): string {
  const label = kind.valueType === 'radio' ? tab['groupName'] : tab.tabLabel;
  return typeof label === 'string' && label.trim() !== '' ? label : kindInWords(kind);
}

/** A kind's words as a label: "Date signed", "SSN". */
export function kindInWords(kind: TabKind): string {
  return kind.words.one.charAt(0).toUpperCase() + kind.words.one.slice(1);
}

/** Whether a tab holds what its recipient must give. */
function isFilled(kind: TabKind, tab: WireTab): boolean {
  switch (kind.valueType) {
    case 'boolean':
      return wireTrue(tab['selected']);
    case 'list':
      return tabMembers(tab, 'listItems').some((i) => wireTrue(i['selected'])) || (tab.value ?? '') !== '';
    case 'radio':
      return tabMembers(tab, 'radios').some((r) => wireTrue(r['selected']));
    default:
      return (tab.value ?? '').trim() !== '';
  }
}

/** Whether a value does not fit its tab (the rules `validate` applies to prefilled values). */
function invalidValue(kind: TabKind, tab: WireTab, value: string): boolean {
  const rules = { maxLength: tab['maxLength'], validationPattern: tab['validationPattern'] };
  return tabValueProblems(kind, value, rules).some((p) => p.field === 'value');
}

/** A recipient's tabs with what they entered on the signing page, and what is missing or wrong. */
export interface Entered {
  tabs: Tabs;
  /** Labels of required tabs left empty. */
  missing: string[];
  /** Labels of tabs whose entered value its kind cannot hold. */
  invalid: string[];
}

/**
 * Applies a signing form's `tab.<tabId>` fields to the tabs the recipient
 * may change (locked and service-filled tabs keep their values whatever is
 * posted): a text-like tab takes the text, a checkbox is selected when its
 * field is present (unticked when absent from a form that showed it), a list or radio group selects the item with the posted
 * value (an unknown value is invalid). Then checks required tabs.
 */
export function applyEntered(tabs: Tabs, form: Readonly<Record<string, string>>): Entered {
  const missing: string[] = [];
  const invalid: string[] = [];
  const out = tabsByKind(tabs).map(({ kind, tab }) => {
    let next: WireTab = tab;
    if (isEditable(kind, tab)) {
      const posted = form[fieldName(tab)];
      if (kind.valueType === 'boolean') {
        // An unticked box posts nothing: absence means unticked only from a page that showed the box.
        if (posted !== undefined || form[fieldsShownField] === '1')
          next = { ...tab, selected: posted === undefined ? 'false' : 'true' };
      } else if (kind.valueType === 'list' || kind.valueType === 'radio') {
        const member = kind.valueType === 'list' ? 'listItems' : 'radios';
        const options = tabMembers(tab, member);
        if (posted !== undefined && posted !== '') {
          if (!options.some((o) => o['value'] === posted)) invalid.push(labelOf(kind, tab));
          else {
            next = {
              ...tab,
              [member]: options.map((o) => ({ ...o, selected: o['value'] === posted ? 'true' : 'false' })),
            };
            if (kind.valueType === 'list') next.value = posted;
          }
        }
      } else if (posted !== undefined) {
        const value = posted.slice(0, 4000);
        if (invalidValue(kind, tab, value)) invalid.push(labelOf(kind, tab));
        next = { ...tab, value };
      }
    }
    if (isRequired(kind, next) && !isFilled(kind, next)) missing.push(labelOf(kind, next));
    return { kind: kind.name, tab: next };
  });
  const known = new Set(tabKinds.map((k) => k.collection));
  return {
    tabs: {
      ...Object.fromEntries(Object.entries(tabs).filter(([collection]) => !known.has(collection))),
      ...tabsObject(out),
    },
    missing,
    invalid,
  };
}

/** One control of the signing page's fields (a tab the recipient fills, or sees). */
export interface SigningField {
  /** The form field it posts (`tab.<tabId>`). */
  name: string;
  label: string;
  control: 'text' | 'checkbox' | 'select' | 'radio' | 'shown';
  /** The kind (`text`, `number`, …): the page sets inputmode from it. */
  kind: string;
  value: string;
  selected: boolean;
  options: { value: string; text: string; selected: boolean; onPage?: PlaceOnPage }[];
  required: boolean;
  /** Read-only: locked by the sender, or filled by the service. */
  locked: boolean;
  /** Filled by the service when the recipient finishes (date signed, name …). */
  byService: boolean;
  maxLength: number | undefined;
  /** Where the control sits on the document (radios: each option's `onPage`); absent: it stays in the list. */
  onPage?: PlaceOnPage;
  /** Drawn on the document as text (a note, a formula, a value the service fills), not as an input. */
  drawing: TabDrawing;
}

/**
 * The fields a recipient's signing page shows, in catalogue order: every tab
 * that holds a value — those they fill (as a text box, a checkbox, a list, a
 * radio group), locked ones read-only, and those the service fills — each
 * with its place on the document when `placeOf` finds one.
 */
export function signingFields(tabs: Tabs, placeOf: PlaceOf = () => undefined): SigningField[] {
  const out: SigningField[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    if (kind.valueType === 'none') continue;
    const onPage = kind.valueType === 'radio' ? undefined : placeOf(kind.name, tab);
    const byService = kind.filledBy !== 'recipient';
    const max = Number(tab['maxLength']);
    const base = {
      name: fieldName(tab),
      label: labelOf(kind, tab),
      kind: kind.name,
      value: tab.value ?? '',
      selected: wireTrue(tab['selected']),
      options: [] as SigningField['options'],
      required: isRequired(kind, tab),
      locked: byService || !isEditable(kind, tab),
      byService,
      maxLength: Number.isInteger(max) && max > 0 ? max : undefined,
      drawing: kind.drawing,
      ...(onPage === undefined ? {} : { onPage }),
    };
    if (byService) out.push({ ...base, control: 'shown' });
    else if (kind.valueType === 'boolean') out.push({ ...base, control: 'checkbox' });
    else if (kind.valueType === 'list' || kind.valueType === 'radio') {
      const member = kind.valueType === 'list' ? 'listItems' : 'radios';
      const options = tabMembers(tab, member).map((o) => {
        const value = typeof o['value'] === 'string' ? o['value'] : '';
        const text = typeof o['text'] === 'string' ? o['text'] : value;
        // A radio sits on its group's document unless it names its own (as the stamp and the preview read it).
        const at = member === 'radios' ? placeOf(kind.name, { documentId: tab.documentId, ...o }) : undefined;
        return {
          value,
          text,
          selected: wireTrue(o['selected']) || (member === 'listItems' && value === base.value && value !== ''),
          ...(at === undefined ? {} : { onPage: at }),
        };
      });
      out.push({ ...base, control: kind.valueType === 'list' ? 'select' : 'radio', options });
    } else out.push({ ...base, control: 'text' });
  }
  return out;
}
