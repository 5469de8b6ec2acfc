import { shorthandTabKind, tabKind, tabKinds, type TabKind } from '../envelope/index.js';
import type { RawTab, RawTabs } from './raw-job.js';

/** One tab of a job file with its kind and where it is written, from its recipient. */
export interface WrittenTab {
  kind: TabKind;
  tab: RawTab;
  written: ReadonlyArray<string | number>;
}

/**
 * The tabs of a recipient as the job file writes them: the list form is the
 * shorthand kind's (sign-here tabs); the object form has one list per
 * collection, read in catalogue order. The one place that tells the forms
 * apart, for structure checks and expansion alike.
 */
export function writtenTabs(tabs: RawTabs | undefined): readonly WrittenTab[] {
  if (tabs === undefined) return [];
  // Every row of a forEach pattern shares its raw tabs: read them once (10,000 rows make it count).
  let read = readByTabs.get(tabs);
  if (read === undefined) {
    read = readTabs(tabs);
    readByTabs.set(tabs, read);
  }
  return read;
}

const readByTabs = new WeakMap<RawTabs, readonly WrittenTab[]>();

function readTabs(tabs: RawTabs): readonly WrittenTab[] {
  if (Array.isArray(tabs)) {
    const kind = tabKind(shorthandTabKind);
    return tabs.map((tab, t) => ({ kind, tab, written: ['tabs', t] }));
  }
  const out: WrittenTab[] = [];
  const byCollection = tabs as Record<string, RawTab[] | undefined>;
  for (const kind of tabKinds) {
    byCollection[kind.collection]?.forEach((tab, t) => out.push({ kind, tab, written: ['tabs', kind.collection, t] }));
  }
  return out;
}
