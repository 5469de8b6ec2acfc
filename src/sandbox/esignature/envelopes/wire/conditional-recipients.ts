import { apiErrors } from '../../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../../platform/http/lenient.js';

/** One filter of a condition (#/definitions/conditionalRecipientRuleFilter): a tab of a recipient compared to a value. */
export interface RuleFilter {
  recipientId: string;
  tabLabel: string;
  tabType: string | undefined;
  operator: string;
  value: string;
}

/**
 * A placeholder recipient of conditional routing (`workflow.workflowSteps[].recipientRouting.rules.conditionalRecipients[]`):
 * when its turn comes, the first condition (by `order`) whose filters all hold picks, by
 * `recipientLabel`, the member of `recipientGroup` who becomes that recipient.
 */
export interface ConditionalRecipient {
  recipientId: string;
  conditions: { order: number; recipientLabel: string; filters: RuleFilter[] }[];
  group: { recipientLabel: string; name: string; email: string; roleName: string | undefined }[];
}

/** Operators of a filter the sandbox evaluates (DocuSign's `operator` words). */
const operators = new Set(['equals', 'notequals']);

/** Reads an envelope definition's conditional recipients (none without a workflow). */
export function parseConditionalRecipients(workflow: unknown): ConditionalRecipient[] {
  const wf = lenientObject(workflow, 'workflow');
  const out: ConditionalRecipient[] = [];
  (lenientArray(wf?.['workflowSteps'], 'workflow.workflowSteps') ?? []).forEach((rawStep, s) => {
    const step = lenientObject(rawStep, `workflow.workflowSteps[${s}]`);
    const routing = lenientObject(step?.['recipientRouting'], `workflow.workflowSteps[${s}].recipientRouting`);
    const rules = lenientObject(routing?.['rules'], `workflow.workflowSteps[${s}].recipientRouting.rules`);
    (lenientArray(rules?.['conditionalRecipients'], 'conditionalRecipients') ?? []).forEach((rawRule, r) => {
      const field = `workflow.workflowSteps[${s}].recipientRouting.rules.conditionalRecipients[${r}]`;
      const rule = lenientObject(rawRule, field)!;
      const recipientId = lenientString(rule['recipientId'], `${field}.recipientId`);
      if (!recipientId) throw apiErrors.invalidBody(`${field}.recipientId names the placeholder recipient.`);
      const groupObject = lenientObject(rule['recipientGroup'], `${field}.recipientGroup`);
      const group = (lenientArray(groupObject?.['recipients'], `${field}.recipientGroup.recipients`) ?? []).map(
        (raw, g) => {
          const where = `${field}.recipientGroup.recipients[${g}]`;
          const member = lenientObject(raw, where)!;
          const recipientLabel = lenientString(member['recipientLabel'], `${where}.recipientLabel`);
          const name = lenientString(member['name'], `${where}.name`);
          const email = lenientString(member['email'], `${where}.email`);
          if (!recipientLabel || !name || !email)
            throw apiErrors.invalidBody(`${where} needs recipientLabel, name and email.`);
          if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw apiErrors.invalidBody(`${where}.email is not an email address.`);
          return { recipientLabel, name, email, roleName: lenientString(member['roleName'], `${where}.roleName`) };
        },
      );
      const conditions = (lenientArray(rule['conditions'], `${field}.conditions`) ?? []).map((raw, c) => {
        const where = `${field}.conditions[${c}]`;
        const condition = lenientObject(raw, where)!;
        const recipientLabel = lenientString(condition['recipientLabel'], `${where}.recipientLabel`) ?? '';
        if (!group.some((m) => m.recipientLabel === recipientLabel))
          throw apiErrors.invalidBody(`${where}.recipientLabel names no member of the recipient group.`);
        const filters = (lenientArray(condition['filters'], `${where}.filters`) ?? []).map((rawFilter, f) => {
          const at = `${where}.filters[${f}]`;
          const filter = lenientObject(rawFilter, at)!;
          const operator = (lenientString(filter['operator'], `${at}.operator`) ?? 'equals').toLowerCase();
          if (!operators.has(operator)) throw apiErrors.invalidBody(`${at}.operator must be equals or notEquals.`);
          const tabLabel = lenientString(filter['tabLabel'], `${at}.tabLabel`);
          const filterRecipient = lenientString(filter['recipientId'], `${at}.recipientId`);
          if (!tabLabel || !filterRecipient) throw apiErrors.invalidBody(`${at} needs recipientId and tabLabel.`);
          return {
            recipientId: filterRecipient,
            tabLabel,
            tabType: lenientString(filter['tabType'], `${at}.tabType`),
            operator,
            value: lenientString(filter['value'], `${at}.value`) ?? '',
          };
        });
        return { order: Number(lenientString(condition['order'], `${where}.order`) ?? c), recipientLabel, filters };
      });
      out.push({ recipientId, conditions: conditions.sort((a, b) => a.order - b.order), group });
    });
  });
  return out;
}
