export { run, PreflightError, type RunOptions } from './run.js';
export { runEnvelope, type EnvelopeContext } from './envelope-pipeline.js';
export { runAccount, type AccountContext } from './account-pipeline.js';
export { checkTemplates, type PreflightProblem, type TemplateFacts } from './template-check.js';
export { envelopeDefinitionOf, expectedApiCalls } from './envelope-definition.js';
export { scheduleLazily } from './schedule.js';
export { envelopeSteps, type EnvelopeStep, type RunEvent, type RunEventListener } from './run-events.js';
export {
  SummaryCollector,
  totalsOf,
  exitCodeOf,
  verdictOf,
  verdictExitCodes,
  type RunVerdict,
  type RunSummary,
  type RunTarget,
  type EnvelopeResult,
  type AccountResult,
  type RecipientOutcome,
  type ItemError,
  type ApiUsage,
  type SummaryTotals,
} from './run-summary.js';
export { resolveTarget, sandboxSeedCredentials, type ResolvedTarget } from './target.js';
export { prepare, type Prepared } from './prepare.js';
export { planRun, planItemName, type RunPlan, type PlanItem, type PlanSources } from './plan.js';
export { CallBudget, type CallBudgetReport } from './call-budget.js';
export { findByIdentity } from './find-by-identity.js';
