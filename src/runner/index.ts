export { runJobs, run, PreflightError, type RunOptions } from './run.js';
export type { CommandRunOptions } from './command-run.js';
export { runEnvelope, type EnvelopeContext } from './envelopes/envelope-pipeline.js';
export { runAccount, type AccountContext } from './resources/account/account-pipeline.js';
export { checkTemplates, type PreflightProblem, type TemplateFacts } from './templates/template-check.js';
export { envelopeDefinitionOf, expectedApiCalls } from './envelopes/envelope-definition.js';
export { scheduleLazily } from './schedule.js';
export type { RunEvent, RunEventListener } from './run-events.js';
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
export { importTemplate, type ImportTemplateOptions, type ImportedTemplate } from './import/import-template.js';
export { importAccount, type ImportAccountOptions, type ImportedAccount } from './import/import-account.js';
export { planJobs, makePlan, planItemName, accountExists, type PlanJobsOptions, type PlanInputs } from './plan.js';
export * from './plan-types.js';
export { decideEnvelope, decideAccount, type DecisionSources } from './decide.js';
export { ServiceLedger, type LedgerEntry, type ServiceLedgerOptions } from './envelopes/service-ledger.js';
export { CallBudget, type CallBudgetReport } from './call-budget.js';
