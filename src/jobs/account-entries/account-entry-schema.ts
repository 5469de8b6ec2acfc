import type { AccountEntryKind } from './account-entry-kind.js';

/**
 * The job file's schema with each kind's field in the account entry's
 * properties (replacing what is there: the kinds are where a field's schema
 * is written). Changes `schema` and returns it.
 */
export function withAccountEntries<T extends { $defs: Record<string, unknown> }>(
  schema: T,
  kinds: readonly AccountEntryKind[],
): T {
  const account = schema.$defs['account'] as { properties: Record<string, unknown> } | undefined;
  if (!account) throw new Error('schemas/job.schema.json has no $defs.account');
  for (const kind of kinds) account.properties[kind.field] = kind.schema;
  return schema;
}

/**
 * The `state` property of an item an account entry keeps: `present` (the
 * default) does what `present` says, `absent` what `absent` says. One shape
 * for every kind, its words its own.
 */
export function stateProperty(present: string, absent: string): Record<string, unknown> {
  return {
    type: 'string',
    enum: ['present', 'absent'],
    description: `\`present\` (default) ${present}; \`absent\` ${absent}.`,
  };
}
