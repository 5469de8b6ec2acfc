import type { ResolvedAccountUser } from '../model.js';
import { emailProblem } from '../value-rules.js';
import type { AccountEntryKind } from './account-entry-kind.js';
import { stateProperty } from './account-entry-schema.js';
import { groupNames } from './groups.js';
import { checkKnownName } from './known-names.js';
import { profileNames } from './permission-profiles.js';

declare module '../raw-job.js' {
  interface RawAccount {
    users?: Array<{
      userName?: string;
      email: string;
      permissionProfileName?: string;
      groups?: string[];
      state?: 'present' | 'absent';
    }>;
  }
}
declare module '../model.js' {
  interface ResolvedAccount {
    /** Users kept as code (`users:`), emails unique; each profile and group named is defined or built in. */
    users?: ResolvedAccountUser[];
  }
}

/** `users:` of an account entry: emails well formed, a present user with a userName, profiles and groups known. */
export const usersEntry = {
  field: 'users',
  schema: {
    type: 'array',
    description:
      'Users kept as code in this account, found by email. A new user is invited by DocuSign (an activation email); no password is ever sent.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['email'],
      properties: {
        userName: {
          type: 'string',
          description: "The user's full name. Required with state: present.",
          minLength: 1,
          maxLength: 100,
        },
        email: {
          type: 'string',
          description: 'Email address: what the user is found by in the account.',
          minLength: 3,
          maxLength: 100,
        },
        permissionProfileName: {
          type: 'string',
          description:
            "The user's permission profile: one of permissionProfiles, or a built-in one. Left out: the account's default for a new user, and left as it is for an existing one.",
          minLength: 1,
        },
        groups: {
          type: 'array',
          description:
            "Every group the user is in besides Everyone: groups of this entry, or Administrators. Left out: the user's groups are left as they are.",
          items: {
            type: 'string',
            minLength: 1,
          },
        },
        state: stateProperty(
          'adds the user when missing and puts back what differs',
          'closes the user (DocuSign keeps closed users)',
        ),
      },
    },
  },
  resolve: (raw, ctx) => {
    const profiles = profileNames(ctx.resolved);
    const groups = groupNames(ctx.resolved);
    return (raw.users ?? []).map((u, i) => {
      const user: ResolvedAccountUser = {
        email: ctx.sub(u.email),
        state: u.state ?? 'present',
        source: ctx.sourceOf(['users', i]),
      };
      const problem = emailProblem(user.email);
      if (problem) ctx.say('SR_EMAIL_INVALID', problem, ['users', i, 'email']);
      if (u.userName !== undefined) user.userName = ctx.sub(u.userName);
      else if (user.state === 'present')
        ctx.say('SR_ACCOUNT_FIELD_MISSING', `user ${user.email} (state: present) needs a userName to be added`, [
          'users',
          i,
          'email',
        ]);
      if (u.permissionProfileName !== undefined) {
        user.permissionProfileName = ctx.sub(u.permissionProfileName);
        checkKnownName(ctx, 'permission profile', 'permissionProfiles', user.permissionProfileName, profiles, [
          'users',
          i,
          'permissionProfileName',
        ]);
      }
      if (u.groups !== undefined) {
        user.groups = u.groups.map((name, j) => {
          const group = ctx.sub(name);
          checkKnownName(ctx, 'group', 'groups', group, groups, ['users', i, 'groups', j]);
          return group;
        });
        const seen = new Set<string>();
        for (const [j, g] of user.groups.entries()) {
          if (seen.has(g.toLowerCase()))
            ctx.say('SR_ACCOUNT_NAME_DUPLICATE', `group "${g}" is listed twice for user ${user.email}`, [
              'users',
              i,
              'groups',
              j,
            ]);
          seen.add(g.toLowerCase());
        }
      }
      return user;
    });
  },
  unique: { what: 'user', name: (u) => u.email, field: 'email', why: '' },
} satisfies AccountEntryKind<ResolvedAccountUser>;
