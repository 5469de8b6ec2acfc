// Fault injection for the sandbox (`serve --faults`). Only re-exports.
export { faultInjectionPlugin, type FaultInjectionOptions, type FaultReport } from './fault-plugin.js';
export {
  parseFaultSpec,
  formatFaultSpec,
  faultKinds,
  defaultSlowMs,
  defaultRetryAfterSeconds,
  type FaultKind,
  type FaultRule,
  type FaultSpec,
} from './fault-spec.js';
export { chooseFault, isApiRequest, isDownload, type FaultCandidate, type FaultCounts } from './fault-choice.js';
export { seededRandom, randomSeed } from './seeded-random.js';
