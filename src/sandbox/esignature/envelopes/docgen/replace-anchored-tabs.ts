import { tabKinds, tabsByKind, tabsObject, type KindedTab, type Tabs } from '../../../../envelope/index.js';
import { hasAnchor } from '../../../../pdf/index.js';
import { placeTabs, type EnvelopeText } from '../tabs/place-tabs.js';

/** What placing an anchored tab adds to it (place-tabs.ts): taken away, the tab is as it was sent. */
const PLACED = ['tabId', 'documentId', 'pageNumber', 'xPosition', 'yPosition'] as const;

/** A placed copy taken back to what was sent: without what placing added. */
function unplaced<T extends Record<string, unknown>>(placed: T): T {
  const original = { ...placed };
  for (const key of PLACED) delete original[key];
  return original;
}

/**
 * A radio group's radios as sent: an anchored radio was placed once per
 * occurrence of its anchor, so its copies go back to the one radio sent
 * (placed again, it would be placed at every occurrence once per copy).
 */
function sentRadios(radios: unknown[]): unknown[] {
  const seen = new Set<string>();
  const out: unknown[] = [];
  for (const radio of radios) {
    if (typeof radio !== 'object' || radio === null || !hasAnchor(radio as Record<string, unknown>)) {
      out.push(radio);
      continue;
    }
    const original = unplaced(radio as Record<string, unknown>);
    const identity = JSON.stringify(original);
    if (seen.has(identity)) continue;
    seen.add(identity);
    out.push(original);
  }
  return out;
}

/**
 * A recipient's tabs placed again on an envelope's documents once a DocGen
 * letter is generated: the text moved (a table row repeated, a long name
 * wrapping), so each anchored tab, kept as one tab per occurrence of its
 * anchor, is taken back to the tab sent and placed at the anchors of the
 * letter as it now is. Tabs placed by coordinates stay where they are.
 */
export async function replaceAnchoredTabs(tabs: Tabs, recipientId: string, text: EnvelopeText): Promise<Tabs> {
  const seen = new Set<string>();
  const sent: KindedTab[] = [];
  for (const { kind, tab } of tabsByKind(tabs)) {
    if (!hasAnchor(tab)) {
      sent.push({ kind, tab: Array.isArray(tab['radios']) ? { ...tab, radios: sentRadios(tab['radios']) } : tab });
      continue;
    }
    const original = unplaced(tab);
    const identity = `${kind.name}\0${JSON.stringify(original)}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    sent.push({ kind, tab: original });
  }
  const known = new Set(tabKinds.map((k) => k.collection));
  return placeTabs(
    {
      ...Object.fromEntries(Object.entries(tabs).filter(([collection]) => !known.has(collection))),
      ...tabsObject(sent.map(({ kind, tab }) => ({ kind: kind.name, tab }))),
    },
    recipientId,
    text,
  );
}
