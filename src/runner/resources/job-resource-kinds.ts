// Generated from the kind modules of src/runner/resources/ by `npm run docs:kinds`
// (src/runner/resources/kind-files.ts): each kind's place comes from its `after`. Do not edit by hand.
import type { JobResourceKind } from './job-resource-kind.js';
import { jobTemplates } from './kinds/job-templates.js';

/**
 * The catalogue of the kinds whose parent is the job file (`parent: 'job'`),
 * in the order a run converges them, all before any envelope: the planner
 * (plan.ts), the run (run.ts), `signrun plan`'s lines, the console summary
 * and report.json walk it. The account catalogue (resource-kinds.ts) lists
 * the kinds an account entry's account holds.
 */
export const jobResourceKinds = [jobTemplates] as const satisfies readonly JobResourceKind[];
