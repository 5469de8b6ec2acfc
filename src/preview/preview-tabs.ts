import { listText, tabKind, tabMembers, wireTrue, type TabKindName, type WireTab } from '../envelope/index.js';
import type { NodePath } from '../jobs/job-yaml.js';
import type { ResolvedEnvelope } from '../jobs/model.js';
import { hasAnchor, placeAtAnchors, stampedPlace, type EnvelopeText, type StampedPlace } from '../pdf/index.js';
import type { TabContent } from '../pdf/index.js';
import { wireTabOf } from '../runner/envelopes/envelope-definition.js';

/** A tab of an envelope where it will be: one per occurrence of its anchor, one per radio of a group. */
export interface PreviewTab {
  /** Its recipient, 0-based in the envelope's order (the colour follows it). */
  readonly recipient: number;
  readonly kind: TabKindName;
  readonly documentId: string;
  /** Page, top-left corner and own size, as the sandbox stamps it (stampedPlace). */
  readonly place: StampedPlace;
  /** What is drawn: a value given before sending, or (label) the kind's name when the signer or the service fills it. */
  readonly content: TabContent;
  /** True when `content` holds a value given before sending (a prefilled text, a chosen item, a ticked box). */
  readonly prefilled: boolean;
  /** Where the job file writes it, from the envelope (`recipients`, i, `tabs`, …). */
  readonly written: NodePath;
  readonly tabLabel?: string;
}

/**
 * Every tab of an envelope built from documents, placed as the sandbox
 * places it when the envelope is created: the wire tab the runner sends
 * (wireTabOf), anchored ones at each occurrence of their anchor
 * (placeAtAnchors, the sandbox's own). An anchor found nowhere gives no tab
 * (validation reports it first). Tabs without a usable position are left out.
 */
export async function previewTabsOf(envelope: ResolvedEnvelope, text: EnvelopeText): Promise<PreviewTab[]> {
  const out: PreviewTab[] = [];
  for (const [recipient, r] of envelope.recipients.entries()) {
    for (const tab of r.tabs) {
      const kind = tabKind(tab.kind);
      const wire = wireTabOf(tab);
      const written = [...r.written, ...tab.written];
      const label = typeof wire.tabLabel === 'string' ? { tabLabel: wire.tabLabel } : {};
      if (kind.valueType === 'radio') {
        for (const radio of tabMembers(wire, 'radios')) {
          // A radio sits on its group's document unless its anchor was found in another.
          const member: Record<string, unknown> = { documentId: wire.documentId, ...radio };
          for (const copy of hasAnchor(member) ? await placeAtAnchors(member, text) : [member]) {
            const documentId = String(copy['documentId']);
            const place = stampedPlace(kind.name, copy, documentId);
            if (place === undefined) continue;
            const selected = wireTrue(copy['selected']);
            const value = typeof copy['value'] === 'string' ? copy['value'] : '';
            const content = { value, selected };
            out.push({
              recipient,
              kind: kind.name,
              documentId,
              place,
              content,
              prefilled: selected,
              written,
              ...label,
            });
          }
        }
        continue;
      }
      for (const copy of hasAnchor(wire) ? await placeAtAnchors(wire, text) : [wire]) {
        const documentId = String(copy.documentId);
        const place = stampedPlace(kind.name, copy, documentId);
        if (place === undefined) continue;
        out.push({ recipient, kind: kind.name, documentId, place, ...contentOf(kind.name, copy), written, ...label });
      }
    }
  }
  return out;
}

/**
 * What the preview shows in a tab before anyone signs: what was given before
 * sending — a text tab's value, a list's chosen item, a checkbox's tick — or
 * else the kind's name, for the signer (or the service, at signing) to fill.
 */
function contentOf(kind: TabKindName, tab: WireTab): { content: TabContent; prefilled: boolean } {
  const { drawing, filledBy } = tabKind(kind);
  const placeholder = { content: { label: kind }, prefilled: false };
  switch (drawing) {
    case 'checkbox': {
      const selected = wireTrue(tab['selected']);
      return { content: { selected, label: kind }, prefilled: selected };
    }
    case 'list': {
      const chosen = listText(tab);
      return chosen === '' ? placeholder : { content: { value: chosen }, prefilled: true };
    }
    case 'text': {
      // A value the service computes at signing (a date signed, a formula) is not known yet.
      const value = filledBy === 'service' ? undefined : tab.value;
      return value === undefined || value === '' ? placeholder : { content: { value }, prefilled: true };
    }
    default:
      return placeholder;
  }
}
