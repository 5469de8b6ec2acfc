import { tabsByKind } from '../../../envelope/index.js';
import type { SandboxDatabase } from '../../platform/db/open-database.js';
import type { EnvelopeRecord, RecipientRecord } from './repository.js';
import type { ConditionalRecipient, RuleFilter } from './wire/conditional-recipients.js';

export type ConditionalRouting = ReturnType<typeof createConditionalRouting>;

const stores = new WeakMap<SandboxDatabase, ConditionalRouting>();

/** An envelope's conditional routing (table `envelope_conditional_recipients`, db/schema.ts). */
export function conditionalRouting(db: SandboxDatabase): ConditionalRouting {
  let store = stores.get(db);
  if (!store) {
    store = createConditionalRouting(db);
    stores.set(db, store);
  }
  return store;
}

/**
 * Placeholder recipients (DocuSign's conditional recipients, its eg034): a
 * recipient created without an email, named by a rule of the envelope's
 * `workflow`. When its routing order comes, the rule's first condition whose
 * filters all hold on the tabs filled so far picks the member of its group
 * who becomes that recipient (name and email), before anyone is notified.
 * With no condition met, the recipient keeps its placeholder name and is
 * sent no message (it has no address).
 */
function createConditionalRouting(db: SandboxDatabase) {
  const insert = db.prepare(
    'INSERT OR REPLACE INTO envelope_conditional_recipients (envelope_id, recipient_id, rule_json) VALUES (?, ?, ?)',
  );
  const select = db.prepare<[string, string], { rule_json: string }>(
    'SELECT rule_json FROM envelope_conditional_recipients WHERE envelope_id = ? AND recipient_id = ?',
  );
  const remove = db.prepare('DELETE FROM envelope_conditional_recipients WHERE envelope_id = ? AND recipient_id = ?');
  const fill = db.prepare('UPDATE recipients SET name = ?, email = ? WHERE envelope_id = ? AND recipient_id = ?');
  return {
    /** Keeps an envelope's rules (before its creation commits, as its brand). */
    record(envelopeId: string, rules: readonly ConditionalRecipient[]): void {
      for (const rule of rules) insert.run(envelopeId, rule.recipientId, JSON.stringify(rule));
    },
    /** Fills a placeholder whose turn has come (inside the lifecycle's transaction); others are left alone. */
    resolve(envelope: EnvelopeRecord, recipient: RecipientRecord, recipients: readonly RecipientRecord[]): void {
      const row = select.get(envelope.id, recipient.recipientId);
      if (row === undefined) return;
      const rule = JSON.parse(row.rule_json) as ConditionalRecipient;
      const met = rule.conditions.find((c) => c.filters.every((f) => holds(f, recipients)));
      const member = met && rule.group.find((m) => m.recipientLabel === met.recipientLabel);
      remove.run(envelope.id, recipient.recipientId);
      if (member === undefined) return;
      recipient.name = member.name;
      recipient.email = member.email;
      fill.run(member.name, member.email, envelope.id, recipient.recipientId);
    },
  };
}

/** A filter on a recipient's tab: a checkbox compares its `selected`, other tabs their `value`, without regard to case. */
function holds(filter: RuleFilter, recipients: readonly RecipientRecord[]): boolean {
  const source = recipients.find((r) => r.recipientId === filter.recipientId);
  const found = tabsByKind(source?.tabs).find(
    (t) =>
      t.tab['tabLabel'] === filter.tabLabel &&
      (filter.tabType === undefined || t.kind.name.toLowerCase() === filter.tabType.toLowerCase()),
  );
  const raw =
    found === undefined
      ? undefined
      : found.kind.name === 'checkbox'
        ? (found.tab['selected'] ?? 'false')
        : found.tab['value'];
  // Stored tab values are strings (the sandbox stringifies them on the way in).
  const value = (typeof raw === 'string' ? raw : '').toLowerCase();
  const equal = value === filter.value.toLowerCase();
  return filter.operator === 'notequals' ? !equal : equal;
}
