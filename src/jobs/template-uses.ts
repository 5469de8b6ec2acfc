import { labelMissingMessage, roleMissingMessage } from '../envelope/index.js';
import { placeOf, type JobContext } from './job-context.js';
import type { RawJobFile, RawPlace } from './raw-job.js';
import { fieldName } from './schema-check.js';
import { writtenRecipients } from './written-recipients.js';
import { writtenTabs } from './written-tabs.js';
import { isTemplateId } from './expand-envelope.js';
import { mayBeKeptInConfiguredAccount, notInSendingAccountMessage, rawListerOf } from './template-homes.js';

/**
 * Envelopes that use a template of their own job file (`template: <key>`):
 * the key names a present template, every templateRoles roleName is one of
 * its roles, and every tab a role fills by label (a tab without a place of
 * its own) has a tab of that label in the role — checked offline, at the
 * line of the role or the tab, where for a stored template the run must
 * read it first (runner/templates/template-check.ts). Values holding a `${row.*}` are
 * left to that check. A template that only account entries which can never
 * be the sending account list (without accountId, or absent) is refused
 * (SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT): envelopes are sent from the
 * configured account, which will not have it (template-homes.ts; the run
 * decides the other cases once it knows that account).
 */
export function checkTemplateUses(job: RawJobFile, ctx: JobContext): void {
  const templates = new Map((job.templates ?? []).map((t) => [t.key, t]));
  const listers = (job.accounts ?? []).map(rawListerOf);
  job.envelopes?.forEach((envelope, e) => {
    // `template: <key>`, or `templates: [<key or id>, …]` (a stored template's id is read by the run).
    const refs: Array<{ key: string; path: Array<string | number> }> =
      envelope.template !== undefined
        ? [{ key: envelope.template, path: ['template'] }]
        : (envelope.templates ?? []).map((key, i) => ({ key, path: ['templates', i] }));
    if (refs.length === 0 || refs.some((r) => r.key.includes('${'))) return;
    const say = (
      code: Parameters<JobContext['sink']['add']>[0],
      message: string,
      path: Array<string | number>,
    ): void => {
      const at = ['envelopes', e, ...path];
      ctx.sink.add(code, message, placeOf(ctx, at), { field: fieldName(at) });
    };
    const labels = new Map<string, Set<string>>();
    let stored = false;
    for (const ref of refs) {
      if (envelope.templates !== undefined && isTemplateId(ref.key)) {
        stored = true;
        continue;
      }
      const template = templates.get(ref.key);
      if (!template || template.state === 'absent') {
        const present = [...templates.values()].filter((t) => t.state !== 'absent').map((t) => t.key);
        say(
          'SR_TEMPLATE_KEY_UNKNOWN',
          `envelope ${envelope.key} uses template ${ref.key}, which ${template ? 'is declared state: absent' : 'no template of this job file has as its key'}; the templates here are: ${present.join(', ') || '(none)'}`,
          ref.path,
        );
        return;
      }
      if (!mayBeKeptInConfiguredAccount(ref.key, listers)) {
        say('SR_TEMPLATE_NOT_IN_SENDING_ACCOUNT', notInSendingAccountMessage(envelope.key, ref.key, listers), ref.path);
        return;
      }
      for (const { recipient } of writtenRecipients(template.recipients))
        if (recipient.roleName !== undefined) {
          const set = labels.get(recipient.roleName) ?? new Set<string>();
          for (const { tab } of writtenTabs(recipient.tabs))
            for (const l of [tab.tabLabel, tab.groupName]) if (l !== undefined) set.add(l);
          labels.set(recipient.roleName, set);
        }
    }
    // A stored template's roles are known only to the service: the run checks them (runner/templates/template-check.ts).
    if (stored) return;
    const key = refs.map((r) => r.key).join(' + ');
    envelope.templateRoles?.forEach((role, r) => {
      if (role.roleName.includes('${')) return;
      const roleLabels = labels.get(role.roleName);
      if (!roleLabels) {
        say('SR_TEMPLATE_ROLE_MISSING', roleMissingMessage(role.roleName, key, labels), [
          'templateRoles',
          r,
          'roleName',
        ]);
        return;
      }
      for (const { tab, written } of writtenTabs(role.tabs)) {
        const label = tab.tabLabel ?? tab.groupName;
        if (label === undefined || label.includes('${') || placed(tab) || tab.radios !== undefined) continue;
        if (roleLabels.has(label)) continue;
        say('SR_TEMPLATE_TAB_LABEL_MISSING', labelMissingMessage(role.roleName, key, label, roleLabels), [
          'templateRoles',
          r,
          ...written,
          tab.tabLabel !== undefined ? 'tabLabel' : 'groupName',
        ]);
      }
    });
  });
}

/** A tab with a place of its own (anchor or position) adds a tab; one without fills the template's by label. */
function placed(tab: RawPlace): boolean {
  return (
    tab.anchorString !== undefined ||
    tab.pageNumber !== undefined ||
    tab.xPosition !== undefined ||
    tab.yPosition !== undefined
  );
}
