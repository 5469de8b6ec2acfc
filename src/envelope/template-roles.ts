/**
 * What a template says of a role filled by an envelope's templateRoles: a
 * role it does not have, or a tab label the role does not have (DocuSign
 * ignores both silently, so signrun refuses them). One wording for the
 * check made offline against a template of the job file (jobs/) and the one
 * made at run against a stored template (runner/).
 */

/** A template's roles, each with the labels (tabLabel, or a radio group's groupName) its tabs can be filled by. */
export type TemplateRoleLabels = ReadonlyMap<string, ReadonlySet<string>>;

/** SR_TEMPLATE_ROLE_MISSING's message. */
export function roleMissingMessage(roleName: string, template: string, roles: TemplateRoleLabels): string {
  return `roleName "${roleName}" is not a role of template ${template}; its roles are: ${quoted(roles.keys())}`;
}

/** SR_TEMPLATE_TAB_LABEL_MISSING's message. */
export function labelMissingMessage(
  roleName: string,
  template: string,
  label: string,
  labels: ReadonlySet<string>,
): string {
  return `role "${roleName}" of template ${template} has no tab labelled "${label}" to fill; its tabs are: ${quoted(labels)}`;
}

function quoted(names: Iterable<string>): string {
  return [...names].map((n) => `"${n}"`).join(', ') || '(none)';
}
