import { builtInGroups } from '../../envelope/account-role-settings.js';
import type { ResolvedGroup } from '../model.js';
import type { AccountEntryKind } from './account-entry-kind.js';
import { checkKnownName } from './known-names.js';
import { profileNames } from './permission-profiles.js';

declare module '../raw-job.js' {
  interface RawAccount {
    groups?: Array<{ groupName: string; permissionProfileName?: string }>;
  }
}
declare module '../model.js' {
  interface ResolvedAccount {
    /** Groups kept as code (`groups:`), names unique; each profile named is defined or built in. */
    groups?: ResolvedGroup[];
  }
}

/** `groups:` of an account entry: each profile named defined in the entry or built in. */
export const groupsEntry = {
  field: 'groups',
  schema: {
    type: 'array',
    description:
      'Groups kept as code in this account, found by groupName (unique per account). Converged after permission profiles, before users.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['groupName'],
      properties: {
        groupName: {
          type: 'string',
          description: 'Name of the group.',
          minLength: 1,
          maxLength: 100,
        },
        permissionProfileName: {
          type: 'string',
          description:
            "The group's permission profile: one of permissionProfiles, or one DocuSign gives every account (Account Administrator, DocuSign Sender, DocuSign Viewer).",
          minLength: 1,
        },
      },
    },
  },
  resolve: (raw, ctx) => {
    const profiles = profileNames(ctx.resolved);
    return (raw.groups ?? []).map((g, i) => {
      const group: ResolvedGroup = { groupName: ctx.sub(g.groupName), source: ctx.sourceOf(['groups', i]) };
      if (g.permissionProfileName !== undefined) {
        group.permissionProfileName = ctx.sub(g.permissionProfileName);
        checkKnownName(ctx, 'permission profile', 'permissionProfiles', group.permissionProfileName, profiles, [
          'groups',
          i,
          'permissionProfileName',
        ]);
      }
      return group;
    });
  },
  unique: {
    what: 'group',
    name: (g) => g.groupName,
    field: 'groupName',
    why: ': DocuSign keeps one per name, ignoring case',
  },
} satisfies AccountEntryKind<ResolvedGroup>;

/** The group names an entry may refer to: DocuSign's own, then the entry's. */
export function groupNames(resolved: Readonly<{ groups?: ResolvedGroup[] }>): string[] {
  return [...builtInGroups, ...(resolved.groups ?? []).map((g) => g.groupName)];
}
