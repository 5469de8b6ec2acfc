import {
  anchorFields,
  positionFields,
  tabKinds,
  tabsByKind,
  tabsObject,
  type KindedTab,
  type Tabs,
  type WireTab,
} from '../../../../envelope/index.js';

const placeFields = new Set<string>([...Object.keys(positionFields), ...Object.keys(anchorFields)]);

function hasPlace(tab: WireTab): boolean {
  return (
    (typeof tab.anchorString === 'string' && tab.anchorString !== '') ||
    (tab.xPosition !== undefined && tab.yPosition !== undefined)
  );
}

/** What names a tab for filling: its tabLabel; a radio group's groupName (it has no tabLabel). */
function labelOf(tab: WireTab): unknown {
  return tab.tabLabel ?? tab['groupName'];
}

/**
 * A radio group's radios filled by a role's: "you only need to provide the
 * radio entry for the entry you're selecting" (DocuSign's eg017). Each radio
 * of the template takes the fields of the role's radio of the same value;
 * when the role selects one, the others are not selected.
 */
function fillRadios(template: unknown, role: unknown): unknown {
  if (!Array.isArray(template) || !Array.isArray(role)) return role ?? template;
  const given = role as Array<Record<string, unknown>>;
  const selects = given.some((r) => String(r['selected']).toLowerCase() === 'true');
  return (template as Array<Record<string, unknown>>).map((radio) => {
    const match = given.find((r) => r['value'] === radio['value']);
    if (match) return { ...radio, ...match };
    return selects ? { ...radio, selected: 'false' } : radio;
  });
}

/**
 * A template role's tabs filled by a `templateRoles[]` entry's tabs, as
 * DocuSign does: a role tab whose tabLabel (a radio group's groupName) is
 * that of template tabs gives them its fields (value, selected, list items,
 * locked …; a radio group its radios, by value) and they keep their place; a
 * role tab with no such label is added when it has a place of its own (a
 * position or an anchor), and ignored otherwise. Template tabs no role tab
 * names stay as they are.
 */
export function fillRoleTabs(template: Tabs, role: Tabs): Tabs {
  const templateTabs = tabsByKind(template);
  const added: KindedTab[] = [];
  const updates = new Map<WireTab, WireTab>();
  for (const { kind, tab } of tabsByKind(role)) {
    const label = labelOf(tab);
    const named =
      label === undefined || label === ''
        ? []
        : [
            ...templateTabs.filter((t) => t.kind === kind && labelOf(t.tab) === label),
            ...templateTabs.filter((t) => t.kind !== kind && labelOf(t.tab) === label),
          ];
    const sameKind = named.filter((t) => t.kind === kind);
    const targets = sameKind.length > 0 ? sameKind : named;
    if (targets.length > 0) {
      const fields = Object.fromEntries(Object.entries(tab).filter(([field]) => !placeFields.has(field)));
      for (const target of targets) {
        const current = updates.get(target.tab) ?? target.tab;
        updates.set(target.tab, {
          ...current,
          ...fields,
          ...(fields['radios'] !== undefined ? { radios: fillRadios(current['radios'], fields['radios']) } : {}),
        });
      }
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
