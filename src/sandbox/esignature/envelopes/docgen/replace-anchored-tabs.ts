import {
  tabKinds,
  tabsByKind,
  tabsObject,
  type KindedTab,
  type Tabs,
  type WireTab,
} from '../../../../envelope/index.js';
import { hasAnchor } from '../../../../pdf/index.js';
import { placeTabs, type EnvelopeText } from '../tabs/place-tabs.js';

/** What placing an anchored tab adds to it (place-tabs.ts): taken away, the tab is as it was sent. */
const PLACED = ['tabId', 'documentId', 'pageNumber', 'xPosition', 'yPosition'] as const;

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
      sent.push({ kind, tab });
      continue;
    }
    const original: WireTab = { ...tab };
    for (const key of PLACED) delete original[key];
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
