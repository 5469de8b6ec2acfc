// Generated from the kind modules of src/runner/resources/ by `npm run docs:kinds`
// (src/runner/resources/kind-files.ts): each kind's place comes from its `after`. Do not edit by hand.
import { accounts } from './kinds/accounts.js';
import type { OrganizationResourceKind } from './organization-resource-kind.js';

/**
 * The catalogue of the kinds whose parent is an organisation (`parent:
 * 'organization'`): the accounts themselves. The planner (plan.ts: each
 * job's items begin with them, before its envelopes), the run's work items
 * (run-work-items.ts) and `signrun plan`'s words walk it; the account
 * catalogue (resource-kinds.ts) lists what each account then holds.
 */
export const organizationResourceKinds = [accounts] as const satisfies readonly OrganizationResourceKind[];

/** The catalogue's kind of a plan item (`account`): undefined for an envelope. */
export function organizationKindOf(kind: string): OrganizationResourceKind | undefined {
  return organizationResourceKinds.find((k) => k.kind === kind);
}
