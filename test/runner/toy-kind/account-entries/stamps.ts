import type { AccountEntryKind } from '../../../../src/jobs/account-entries/account-entry-kind.js';
import type { SourcePosition } from '../../../../src/jobs/model.js';

// The toy kind's job file's side (test/runner/toy-resource-kind.test.ts), as a
// real kind's in src/jobs/account-entries/: its field, the field's schema, its
// resolving and checks, its types declared here by augmentation.

export interface Stamp {
  stampName: string;
  colour: string;
}

declare module '../../../../src/jobs/raw-job.js' {
  interface RawAccount {
    stamps?: Stamp[];
  }
}
declare module '../../../../src/jobs/model.js' {
  interface ResolvedAccount {
    stamps?: Array<Stamp & { source: SourcePosition }>;
  }
}

/** `stamps:` of an account entry: a colour of three, names unique. */
export const stampsEntry = {
  field: 'stamps',
  schema: {
    type: 'array',
    description: 'Stamps kept as code in this account.',
    items: {
      type: 'object',
      additionalProperties: false,
      required: ['stampName', 'colour'],
      properties: {
        stampName: { type: 'string', minLength: 1, description: 'Name of the stamp.' },
        colour: { enum: ['green', 'red', 'blue'], description: 'Its ink.' },
      },
    },
  },
  resolve: (raw, ctx) =>
    (raw.stamps ?? []).map((s, i) => ({
      stampName: ctx.sub(s.stampName),
      colour: s.colour,
      source: ctx.sourceOf(['stamps', i]),
    })),
  unique: { what: 'stamp', name: (s) => s.stampName, field: 'stampName', why: ': the toy keeps one per name' },
} satisfies AccountEntryKind<Stamp & { source: SourcePosition }>;
