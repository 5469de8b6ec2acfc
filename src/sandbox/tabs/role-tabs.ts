import {
  anchorFields,
  positionFields,
  tabKinds,
  tabsByKind,
  tabsObject,
  type KindedTab,
  type Tabs,
  type WireTab,
} from '../../envelope/index.js';

const placeFields = new Set<string>([...Object.keys(positionFields), ...Object.keys(anchorFields)]);

function hasPlace(tab: WireTab): boolean {
  return (
    (typeof tab.anchorString === 'string' && tab.anchorString !== '') ||
    (tab.xPosition !== undefined && tab.yPosition !== undefined)
  );
}

/**
 * A template role's tabs filled by a `templateRoles[]` entry's tabs, as
 * DocuSign does: a role tab whose tabLabel is that of template tabs gives
 * them its fields (value, selected, list items, locked …) and they keep their
 * place; a role tab with no such label is added when it has a place of its
 * own (a position or an anchor), and ignored otherwise. Template tabs no role
 * tab names stay as they are.
 */
export function fillRoleTabs(template: Tabs, role: Tabs): Tabs {
  const templateTabs = tabsByKind(template);
  const added: KindedTab[] = [];
  const updates = new Map<WireTab, WireTab>();
  for (const { kind, tab } of tabsByKind(role)) {
    const label = tab.tabLabel;
    const named =
      label === undefined || label === ''
        ? []
        : [
            ...templateTabs.filter((t) => t.kind === kind && t.tab.tabLabel === label),
            ...templateTabs.filter((t) => t.kind !== kind && t.tab.tabLabel === label),
          ];
    const sameKind = named.filter((t) => t.kind === kind);
    const targets = sameKind.length > 0 ? sameKind : named;
    if (targets.length > 0) {
      const fields = Object.fromEntries(Object.entries(tab).filter(([field]) => !placeFields.has(field)));
      for (const target of targets) updates.set(target.tab, { ...(updates.get(target.tab) ?? target.tab), ...fields });
    } else if (hasPlace(tab)) added.push({ kind, tab });
  }
  const known = new Set(tabKinds.map((k) => k.collection));
  return {
    ...Object.fromEntries(Object.entries(template).filter(([collection]) => !known.has(collection))),
    ...tabsObject(
      [...templateTabs.map(({ kind, tab }) => ({ kind, tab: updates.get(tab) ?? tab })), ...added].map(
        ({ kind, tab }) => ({ kind: kind.name, tab }),
      ),
    ),
  };
}
