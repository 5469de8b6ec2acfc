import {
  recipientsByKind,
  tabsByKind,
  type EnvelopeTemplate,
  type WireRecipient,
  type WireTab,
} from '../../envelope/wire.js';
import type { TemplateShape } from './template-definition.js';

/**
 * What differs between a template as the job file defines it (the
 * definition signrun would write) and as the account holds it, in words a
 * person reads in `plan`: `name: "A" in the file, "B" in the account`.
 * Only what signrun writes is compared: the template's texts, its
 * documents (by id and name: their bytes are compared by the digest signrun
 * stores on the template), its roles (kind, routing order, fixed person) and
 * each role's tabs, on the fields the file gives (the service fills in
 * defaults of its own). Empty: nothing differs.
 */
export function templateDifferences(file: TemplateShape, account: EnvelopeTemplate): string[] {
  const out: string[] = [];
  const differ = (what: string, mine: string, theirs: string) => {
    if (mine !== theirs) out.push(`${what}: ${quote(mine)} in the file, ${quote(theirs)} in the account`);
  };
  const nested = account.envelopeTemplateDefinition;
  differ('name', file.name, account.name ?? nested?.name ?? '');
  differ('description', file.description ?? '', account.description ?? nested?.description ?? '');
  differ('emailSubject', file.emailSubject ?? '', account.emailSubject ?? '');
  differ('emailBlurb', file.emailBlurb ?? '', account.emailBlurb ?? '');

  const documents = (list: Array<{ documentId?: string; name?: string }>) =>
    list.map((d) => `${d.documentId ?? '?'} ${d.name ?? ''}`).join(', ');
  differ('documents', documents(file.documents), documents(account.documents ?? []));

  const theirs = new Map(
    recipientsByKind(account.recipients)
      .filter(({ recipient }) => recipient.roleName)
      .map((r) => [r.recipient.roleName!, r]),
  );
  const mine = recipientsByKind(file.recipients);
  for (const { kind, recipient } of mine) {
    const role = recipient.roleName ?? '';
    const other = theirs.get(role);
    theirs.delete(role);
    if (!other) {
      out.push(`role ${role}: in the file, not in the account`);
      continue;
    }
    const what = (field: string) => `role ${role} ${field}`;
    differ(what('kind'), kind.collection, other.kind.collection);
    differ(what('routingOrder'), recipient.routingOrder ?? '1', other.recipient.routingOrder ?? '1');
    for (const field of ['name', 'email', 'clientUserId'] as const)
      differ(what(field), recipient[field] ?? '', other.recipient[field] ?? '');
    tabDifferences(recipient, other.recipient, (line) => out.push(`role ${role} ${line}`));
  }
  for (const role of theirs.keys()) out.push(`role ${role}: in the account, not in the file`);
  return out;
}

/** A role's tabs, kind by kind and in order, each compared on the fields the file gives it. */
function tabDifferences(mine: WireRecipient, theirs: WireRecipient, say: (line: string) => void): void {
  const byCollection = (tabs: WireRecipient['tabs']) => {
    const map = new Map<string, WireTab[]>();
    for (const { kind, tab } of tabsByKind(tabs)) {
      const list = map.get(kind.collection) ?? [];
      list.push(tab);
      map.set(kind.collection, list);
    }
    return map;
  };
  const a = byCollection(mine.tabs);
  const b = byCollection(theirs.tabs);
  for (const collection of new Set([...a.keys(), ...b.keys()])) {
    const left = a.get(collection) ?? [];
    const right = b.get(collection) ?? [];
    if (left.length !== right.length) {
      say(`${collection}: ${left.length} in the file, ${right.length} in the account`);
      continue;
    }
    left.forEach((tab, i) => {
      for (const [field, value] of Object.entries(tab)) {
        // Whose the tab is: numbered by the service.
        if (field === 'recipientId' || field === 'tabId') continue;
        const given = canonical(value);
        const found = canonical((right[i] as Record<string, unknown>)[field]);
        if (given !== found)
          say(`${collection}[${i}] ${field}: ${quote(given)} in the file, ${quote(found)} in the account`);
      }
    });
  }
}

/** A wire value as compared: strings as they are, the rest (list items, radios) as JSON. */
function canonical(value: unknown): string {
  if (value === undefined || value === null) return '';
  return typeof value === 'string' ? value : JSON.stringify(value);
}

function quote(text: string): string {
  return text === '' ? '(none)' : JSON.stringify(text.length > 80 ? `${text.slice(0, 77)}...` : text);
}
