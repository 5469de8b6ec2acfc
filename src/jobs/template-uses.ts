import { placeOf, type JobContext } from './job-context.js';
import type { RawJobFile, RawPlace } from './raw-job.js';
import { fieldName } from './schema-check.js';
import { writtenRecipients } from './written-recipients.js';
import { writtenTabs } from './written-tabs.js';

/**
 * Envelopes that use a template of their own job file (`template: <key>`):
 * the key names a present template, every templateRoles roleName is one of
 * its roles, and every tab a role fills by label (a tab without a place of
 * its own) has a tab of that label in the role — checked offline, at the
 * line of the role or the tab, where for a stored template the run must
 * read it first (runner/template-check.ts). Values holding a `${row.*}` are
 * left to that check.
 */
export function checkTemplateUses(job: RawJobFile, ctx: JobContext): void {
  const templates = new Map((job.templates ?? []).map((t) => [t.key, t]));
  job.envelopes?.forEach((envelope, e) => {
    const key = envelope.template;
    if (key === undefined || key.includes('${')) return;
    const say = (
      code: Parameters<JobContext['sink']['add']>[0],
      message: string,
      path: Array<string | number>,
    ): void => {
      const at = ['envelopes', e, ...path];
      ctx.sink.add(code, message, placeOf(ctx, at), { field: fieldName(at) });
    };
    const template = templates.get(key);
    if (!template || template.state === 'absent') {
      const present = [...templates.values()].filter((t) => t.state !== 'absent').map((t) => t.key);
      say(
        'SR_TEMPLATE_KEY_UNKNOWN',
        `envelope ${envelope.key} uses template ${key}, which ${template ? 'is declared state: absent' : 'no template of this job file has as its key'}; the templates here are: ${present.join(', ') || '(none)'}`,
        ['template'],
      );
      return;
    }
    const labels = new Map<string, Set<string>>();
    for (const { recipient } of writtenRecipients(template.recipients))
      if (recipient.roleName !== undefined)
        labels.set(
          recipient.roleName,
          new Set(
            writtenTabs(recipient.tabs).flatMap(({ tab }) =>
              [tab.tabLabel, tab.groupName].filter((l): l is string => l !== undefined),
            ),
          ),
        );
    envelope.templateRoles?.forEach((role, r) => {
      if (role.roleName.includes('${')) return;
      const roleLabels = labels.get(role.roleName);
      if (!roleLabels) {
        say(
          'SR_TEMPLATE_ROLE_MISSING',
          `roleName "${role.roleName}" is not a role of template ${key}; its roles are: ${[...labels.keys()].map((n) => `"${n}"`).join(', ') || '(none)'}`,
          ['templateRoles', r, 'roleName'],
        );
        return;
      }
      for (const { tab, written } of writtenTabs(role.tabs)) {
        const label = tab.tabLabel ?? tab.groupName;
        if (label === undefined || label.includes('${') || placed(tab) || tab.radios !== undefined) continue;
        if (roleLabels.has(label)) continue;
        say(
          'SR_TEMPLATE_TAB_LABEL_MISSING',
          `role "${role.roleName}" of template ${key} has no tab labelled "${label}" to fill; its tabs are: ${[...roleLabels].map((l) => `"${l}"`).join(', ') || '(none)'}`,
          ['templateRoles', r, ...written, tab.tabLabel !== undefined ? 'tabLabel' : 'groupName'],
        );
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
