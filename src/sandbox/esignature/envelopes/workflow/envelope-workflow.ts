import { randomUUID } from 'node:crypto';
import type { SandboxDatabase } from '../../../platform/db/open-database.js';
import { isoTime } from '../../../platform/clock.js';
import { apiErrors } from '../../../platform/http/api-error.js';
import { lenientArray, lenientObject, lenientString } from '../../../platform/http/lenient.js';

// An envelope's workflow (`workflow` of #/definitions/envelopeDefinition),
// DocuSign's Advanced Recipient Routing, as its examples use it:
// - scheduled sending (eg035): `scheduledSending.rules[0]` holds the first
//   routing order until its `resumeDate`, or its `delay` after sending;
//   https://developers.docusign.com/docs/esign-rest-api/esign101/concepts/recipients/scheduled-sending/
// - delayed routing (eg036): a step `pause_before` a routing order with
//   `delayedRouting.rules[0]` holds that order for the delay once the orders
//   before it are done (or until the rule's resumeDate);
//   https://developers.docusign.com/docs/esign-rest-api/esign101/concepts/recipients/delayed-routing/
// - pausing (eg032): a step `pause_before` a routing order, without delayed
//   routing, pauses the envelope when that order comes (workflowStatus
//   `paused`) until an update sets workflowStatus `in_progress` (eg033);
//   https://developers.docusign.com/docs/esign-rest-api/how-to/pause-workflow/
// A step with `recipientRouting` is conditional routing's
// (conditional-routing.ts) and holds nothing.
//
// Time is the sandbox's clock: what is held until a time is released by the
// first request after it (or the serve process's one-second tick), so a test
// moves its clock instead of waiting.

/** `#/definitions/envelopeDelayRule`: a delay (`d.hh:mm:ss`) or a resumeDate, as sent. */
export interface DelayRule {
  delay?: string;
  resumeDate?: string;
}

type HoldStatus = 'pending' | 'started' | 'completed';

/** A timed hold (scheduled sending, or a step's delayed routing). */
interface TimedHold {
  rules: DelayRule[];
  status: HoldStatus;
  /** When the hold ends (epoch ms), once started. */
  resumeAt?: number;
}

interface WorkflowStepState {
  workflowStepId: string;
  action: 'pause_before';
  triggerOnItem: 'routing_order';
  itemId: number;
  status: 'pending' | 'in_progress' | 'paused' | 'completed';
  triggeredAt?: number;
  completedAt?: number;
  delayedRouting?: TimedHold;
}

/** What the sandbox keeps of an envelope's workflow. */
export interface WorkflowState {
  workflowStatus: 'in_progress' | 'paused';
  scheduledSending?: TimedHold;
  steps: WorkflowStepState[];
}

const dayHms = /^(?:(\d+)\.)?(\d{1,2}):(\d{2}):(\d{2})$/;

/** A rule's `delay` (`d.hh:mm:ss`, DocuSign's TimeSpan) in milliseconds; undefined when it is not one. */
export function delayMs(delay: string): number | undefined {
  const m = dayHms.exec(delay.trim());
  if (!m) return undefined;
  const [days, hours, minutes, seconds] = [m[1] ?? '0', m[2]!, m[3]!, m[4]!].map(Number) as [
    number,
    number,
    number,
    number,
  ];
  return (((days * 24 + hours) * 60 + minutes) * 60 + seconds) * 1000;
}

function parseRules(raw: unknown, field: string): DelayRule[] {
  const holder = lenientObject(raw, field);
  const rules = (lenientArray(holder?.['rules'], `${field}.rules`) ?? []).map((r, i) => {
    const rule = lenientObject(r, `${field}.rules[${i}]`) ?? {};
    const delay = lenientString(rule['delay'], `${field}.rules[${i}].delay`);
    const resumeDate = lenientString(rule['resumeDate'], `${field}.rules[${i}].resumeDate`);
    if (delay !== undefined && delayMs(delay) === undefined)
      throw apiErrors.invalidBody(
        `${field}.rules[${i}].delay must be a time span like 0.02:00:00 (days.hours:minutes:seconds).`,
      );
    if (resumeDate !== undefined && Number.isNaN(Date.parse(resumeDate)))
      throw apiErrors.invalidBody(`${field}.rules[${i}].resumeDate must be a date (ISO 8601).`);
    if (delay === undefined && resumeDate === undefined)
      throw apiErrors.invalidBody(`${field}.rules[${i}] needs a delay or a resumeDate.`);
    return { ...(delay !== undefined ? { delay } : {}), ...(resumeDate !== undefined ? { resumeDate } : {}) };
  });
  // DocuSign: "Only one rule may be specified."
  if (rules.length > 1) throw apiErrors.invalidBody(`${field}.rules: only one rule may be specified.`);
  return rules;
}

/** Reads `workflow` of a creation request; undefined when it holds nothing (absent, or conditional routing only). */
export function parseWorkflow(raw: unknown): WorkflowState | undefined {
  const workflow = lenientObject(raw, 'workflow');
  if (!workflow) return undefined;
  const scheduled =
    workflow['scheduledSending'] == null ? [] : parseRules(workflow['scheduledSending'], 'workflow.scheduledSending');
  const steps: WorkflowStepState[] = [];
  (lenientArray(workflow['workflowSteps'], 'workflow.workflowSteps') ?? []).forEach((r, i) => {
    const field = `workflow.workflowSteps[${i}]`;
    const step = lenientObject(r, field) ?? {};
    if (step['recipientRouting'] != null) return;
    const action = lenientString(step['action'], `${field}.action`);
    if (action !== 'pause_before') throw apiErrors.invalidBody(`${field}.action must be pause_before.`);
    const trigger = lenientString(step['triggerOnItem'], `${field}.triggerOnItem`);
    if (trigger !== 'routing_order') throw apiErrors.invalidBody(`${field}.triggerOnItem must be routing_order.`);
    const itemId = Number(lenientString(step['itemId'], `${field}.itemId`));
    if (!Number.isInteger(itemId) || itemId < 1)
      throw apiErrors.invalidBody(`${field}.itemId must be the routing order the step comes before.`);
    const delayed =
      step['delayedRouting'] == null ? undefined : parseRules(step['delayedRouting'], `${field}.delayedRouting`);
    steps.push({
      workflowStepId: lenientString(step['workflowStepId'], `${field}.workflowStepId`) ?? randomUUID(),
      action: 'pause_before',
      triggerOnItem: 'routing_order',
      itemId,
      status: 'pending',
      ...(delayed && delayed.length > 0 ? { delayedRouting: { rules: delayed, status: 'pending' as const } } : {}),
    });
  });
  if (scheduled.length === 0 && steps.length === 0) return undefined;
  return {
    workflowStatus: 'in_progress',
    ...(scheduled.length > 0 ? { scheduledSending: { rules: scheduled, status: 'pending' as const } } : {}),
    steps,
  };
}

/** When a hold that starts now ends: its rule's resumeDate, or now plus its delay. */
function endOf(rule: DelayRule, now: number): number {
  if (rule.resumeDate !== undefined) return Date.parse(rule.resumeDate);
  return now + (delayMs(rule.delay ?? '0:00:00') ?? 0);
}

/**
 * Passes a timed hold when its time has come; starts it first if it has not
 * started. True when the hold is over.
 */
function passHold(hold: TimedHold, now: number): boolean {
  if (hold.status === 'completed') return true;
  if (hold.status === 'pending') {
    hold.status = 'started';
    hold.resumeAt = endOf(hold.rules[0] ?? {}, now);
  }
  if (now < (hold.resumeAt ?? now)) return false;
  hold.status = 'completed';
  return true;
}

/** The time the workflow waits for (the end of a started hold), or null. */
function nextResume(state: WorkflowState): number | null {
  const holds = [state.scheduledSending, ...state.steps.map((s) => s.delayedRouting)].filter(
    (h): h is TimedHold => h !== undefined && h.status === 'started' && h.resumeAt !== undefined,
  );
  return holds.length > 0 ? Math.min(...holds.map((h) => h.resumeAt!)) : null;
}

export type EnvelopeWorkflows = ReturnType<typeof createEnvelopeWorkflows>;

const stores = new WeakMap<SandboxDatabase, EnvelopeWorkflows>();

/** The envelopes' workflows (table `envelope_workflows`, db/schema.ts). */
export function envelopeWorkflows(db: SandboxDatabase): EnvelopeWorkflows {
  let store = stores.get(db);
  if (!store) {
    store = createEnvelopeWorkflows(db);
    stores.set(db, store);
  }
  return store;
}

function createEnvelopeWorkflows(db: SandboxDatabase) {
  const upsert = db.prepare(
    'INSERT OR REPLACE INTO envelope_workflows (envelope_id, workflow_json, resume_at) VALUES (?, ?, ?)',
  );
  const select = db.prepare<[string], { workflow_json: string }>(
    'SELECT workflow_json FROM envelope_workflows WHERE envelope_id = ?',
  );
  const dueRows = db.prepare<[number], { envelope_id: string }>(
    'SELECT envelope_id FROM envelope_workflows WHERE resume_at IS NOT NULL AND resume_at <= ? ORDER BY resume_at',
  );
  const settle = db.prepare(
    'UPDATE envelope_workflows SET resume_at = NULL WHERE envelope_id = ? AND resume_at IS NOT NULL AND resume_at <= ?',
  );
  const save = (envelopeId: string, state: WorkflowState) =>
    upsert.run(envelopeId, JSON.stringify(state), nextResume(state));
  const get = (envelopeId: string): WorkflowState | undefined => {
    const row = select.get(envelopeId);
    return row === undefined ? undefined : (JSON.parse(row.workflow_json) as WorkflowState);
  };
  return {
    /** Keeps an envelope's workflow (before its creation commits, as its conditional routing). */
    record: save,
    get,
    /**
     * May the recipients of this routing order be sent now? Called by the
     * lifecycle (in its transaction) before it sends an order; starts the
     * holds that order meets, and pauses the envelope at a pause step.
     */
    gate(envelopeId: string, routingOrder: number, firstSend: boolean, now: number): boolean {
      const state = get(envelopeId);
      if (!state) return true;
      if (state.workflowStatus === 'paused') return false;
      let open = true;
      if (firstSend && state.scheduledSending) open = passHold(state.scheduledSending, now);
      const step = open ? state.steps.find((s) => s.itemId === routingOrder && s.status !== 'completed') : undefined;
      if (step) {
        step.triggeredAt ??= now;
        if (step.delayedRouting) {
          step.status = 'in_progress';
          open = passHold(step.delayedRouting, now);
        } else {
          step.status = 'paused';
          state.workflowStatus = 'paused';
          open = false;
        }
        if (open) {
          step.status = 'completed';
          step.completedAt = now;
        }
      }
      save(envelopeId, state);
      return open;
    },
    /**
     * `workflowStatus: in_progress` on a paused envelope (eg033): the paused
     * step is done; true when the envelope was paused (the lifecycle then
     * sends on). On an envelope that is not paused it changes nothing.
     */
    unpause(envelopeId: string, now: number): boolean {
      const state = get(envelopeId);
      if (!state || state.workflowStatus !== 'paused') return false;
      state.workflowStatus = 'in_progress';
      for (const step of state.steps)
        if (step.status === 'paused') {
          step.status = 'completed';
          step.completedAt = now;
        }
      save(envelopeId, state);
      return true;
    },
    /** Envelopes whose hold ends at or before `now`. */
    due(now: number): string[] {
      return dueRows.all(now).map((r) => r.envelope_id);
    },
    /**
     * After a resume: a hold still due (the envelope was voided, or is no
     * longer under way, so the lifecycle did not reach it) is not asked for again.
     */
    settle(envelopeId: string, now: number): void {
      settle.run(envelopeId, now);
    },
  };
}

const holdJson = (hold: TimedHold) => ({
  rules: hold.rules,
  status: hold.status,
  ...(hold.resumeAt !== undefined ? { resumeDate: isoTime(hold.resumeAt) } : {}),
});

/**
 * `#/definitions/workflow` as GET …/workflow answers it, with the fields of
 * today's API the Swagger file predates (scheduledSending, a step's
 * delayedRouting, resumeDate).
 */
export function workflowJson(state: WorkflowState | undefined): Record<string, unknown> {
  if (!state) return { workflowStatus: 'in_progress', workflowSteps: [] };
  const current = state.steps.find((s) => s.status === 'paused' || s.status === 'in_progress');
  const resume = nextResume(state);
  return {
    workflowStatus: state.workflowStatus,
    ...(current ? { currentWorkflowStepId: current.workflowStepId } : {}),
    ...(resume !== null ? { resumeDate: isoTime(resume) } : {}),
    ...(state.scheduledSending ? { scheduledSending: holdJson(state.scheduledSending) } : {}),
    workflowSteps: state.steps.map((s) => ({
      workflowStepId: s.workflowStepId,
      action: s.action,
      triggerOnItem: s.triggerOnItem,
      itemId: String(s.itemId),
      status: s.status,
      ...(s.triggeredAt !== undefined ? { triggeredDate: isoTime(s.triggeredAt) } : {}),
      ...(s.completedAt !== undefined ? { completedDate: isoTime(s.completedAt) } : {}),
      ...(s.delayedRouting ? { delayedRouting: holdJson(s.delayedRouting) } : {}),
    })),
  };
}
