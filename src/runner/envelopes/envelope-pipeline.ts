import type { ResolvedEnvelope } from '../../jobs/model.js';
import type { AccountClient } from '../../client/esignature-client.js';
import { ClientHttpError, mayHaveActed } from '../../client/client-errors.js';
import { serviceErrorMeans } from '../../client/service-error-classes.js';
import type { Journal } from '../../state/journal.js';
import type { EnvelopeProgress } from '../../state/journal-progress.js';
import type { NewJournalRecord } from '../../state/journal-record.js';
import { SignrunError, isSignrunError } from '../../errors/signrun-error.js';
import type { CommittingFile, FileRecord, OutputFolder } from '../../output/output-folder.js';
import { fileDigest } from '../../output/file-digest.js';
import type { EnvelopeRecord, RecipientRecord, SigningEntry } from '../../output/records.js';
import { documentFile, itemFile, itemFolder } from '../../output/output-paths.js';
import { copyFacts, shownFactFields } from '../../output/status-fields.js';
import { envelopeDefinitionOf } from './envelope-definition.js';
import type { ValidatedDocuments } from './validated-documents.js';
import { recipientsOf, signersInTurn, viewKeyOf } from './envelope-recipients.js';
import { identityOf, transactionIdOf } from '../identity.js';
import { isSettledEnvelope, recipientHasActed } from '../../envelope/statuses.js';
import { shorthandRecipientKind } from '../../envelope/recipient-kinds.js';
import { announcedBytesOf } from '../../envelope/wire.js';
import { recipientStatusAt, withFacts } from '../../state/status-facts.js';
import type { EnvelopeStatusFacts } from '../../state/journal-record.js';
import type { RunEventListener } from '../run-events.js';
import type { SigningUrls } from '../../config/types.js';
import type { DocumentsWhen, EnvelopePlan, EnvelopeStep } from '../plan-types.js';
import type { ServiceLedger } from './service-ledger.js';
import { RequestOrder, requestPriority, type RequestKind } from '../request-priority.js';
import { routedStatus } from '../../envelope/routing-turn.js';
import { retireEarlierEnvelope } from '../../output/earlier-envelope.js';
import { setDocGenFormFields } from './docgen-fields.js';
import type { EnvelopeResult, ItemError, RecipientOutcome } from '../run-summary.js';

/** What executing an envelope's plan needs from the run. */
export interface EnvelopeContext {
  account: AccountClient;
  out: OutputFolder;
  rootUrl: string;
  emit: RunEventListener;
  now: () => Date;
  /** Lifetime the service gives a signing address, seconds (DocuSign: 300). */
  viewTtlSeconds: number;
  /** `on-demand`: no address is made at send; signing.json lists the signers in turn (`run --signing-urls`). Default `at-send`. */
  signingUrls?: SigningUrls;
  /** Calls and retries made so far under a tag. */
  usageOf(tag: string): { calls: number; retries: number };
  /** Where every step is recorded before it counts as done (a journal that keeps nothing without a state folder). */
  journal: Journal;
  /** What the journal of earlier runs says of an envelope (files of earlier runs, for the report). */
  progressOf?: (id: string) => EnvelopeProgress | undefined;
  /** The service's listing: confirms drafts (present when runners may race). */
  ledger?: ServiceLedger;
  documents: DocumentsWhen;
  /** The order of the run's requests among those waiting for a connection (request-priority.ts). Default: the usual order. */
  order?: RequestOrder;
  /** The target is a sandbox this run started in-process: its envelopes end with the run (envelope.json says so). */
  inProcessSandbox?: boolean;
  /** The run's documents, each read and encoded once (absent: each envelope reads its own). */
  validatedDocuments?: ValidatedDocuments;
}

const usualOrder = new RequestOrder();
/** The priority of this envelope's request of this kind, made now. */
const priorityOf = (ctx: EnvelopeContext, kind: RequestKind): number => (ctx.order ?? usualOrder).of(kind);

/** The state one envelope carries from step to step. */
interface EnvelopeState {
  folder: string;
  envelopeId?: string;
  /** This run's own draft, when it made one. */
  draftId?: string;
  /**
   * The create call failed in a way the service may have acted on (every
   * attempt's answer lost, e.g. `reset-after`): drafts of this run may exist
   * that it never heard of. The confirm's listing finds them; when it shows
   * none, this failure is the envelope's.
   */
  draftUnanswered?: Error;
  status?: string;
  adopted: boolean;
  outcomes: RecipientOutcome[];
  signing: SigningEntry[];
  downloads: FileRecord[];
  files: Map<string, FileRecord>;
  /**
   * Files written behind, with the journal records each makes once
   * committed: nothing is recorded as done before its output is on disk (a
   * crash between the two costs the step again, never an output the journal
   * promises and the disk lacks).
   */
  commits: Array<{ committed: Promise<void>; records?: NewJournalRecord[] }>;
  /** Journal records written behind the calls; the result waits for them. */
  journalling: Array<Promise<void>>;
  lastStep?: EnvelopeStep;
}

/**
 * Appends a step's record behind the calls: the journal keeps records in call
 * order, and the envelope's result waits for every one on disk. No call
 * waits for the record before it: the service's listing, which every plan
 * reads, is what says whether a draft, a winner or a sent envelope exists,
 * so a record lost to a crash costs a step asked again (a view, a refused
 * second send), never a second envelope (docs/exactly-once.md).
 */
function journalBehind(state: EnvelopeState, ctx: EnvelopeContext, record: NewJournalRecord): void {
  const written = ctx.journal.append(record);
  written.catch(() => undefined); // awaited with the envelope's result
  state.journalling.push(written);
}

/** A journal that keeps nothing: a run without a state folder. */
export const noJournal: Journal = { path: '', append: async () => {}, close: async () => {} };

/**
 * Executes the plan of one envelope (decide.ts decided): its steps in
 * order — draft, confirm, send, views, documents, certificate — each
 * recorded in the journal before it counts as done. Decides nothing itself,
 * except what only the service can answer while it runs: which draft of the
 * identity won (confirm). Never throws: failures become the result.
 */
export async function runEnvelope(
  plan: EnvelopePlan & { envelope: ResolvedEnvelope },
  ctx: EnvelopeContext,
): Promise<EnvelopeResult> {
  const { envelope } = plan;
  const tag = plan.identity;
  const startedAt = ctx.now();
  const decision = plan.decision;
  const state: EnvelopeState = {
    folder: itemFolder(envelope.job, envelope.key),
    // Not created by this run: found on the service, or created by an earlier one (the journal).
    adopted:
      decision.action !== 'drift' &&
      'envelopeId' in decision &&
      decision.envelopeId !== undefined &&
      !(decision.action === 'adopt' && decision.bulkSent === true),
    outcomes: [],
    signing: [],
    downloads: [],
    files: new Map(),
    commits: [],
    journalling: [],
  };
  if ('envelopeId' in decision && decision.envelopeId) state.envelopeId = decision.envelopeId;
  if (decision.action === 'adopt') state.status = decision.draft ? 'created' : 'sent';
  const journalled = ctx.progressOf?.(tag);
  if (journalled?.sent) state.status = 'sent';
  // Issue 12: what the last sync recorded of this envelope (status, recipients, reasons).
  const facts =
    state.envelopeId && journalled?.status?.envelopeId === state.envelopeId.toLowerCase()
      ? journalled.status.facts
      : undefined;
  if (facts) state.status = facts.status;
  if (decision.action === 'settled' && decision.status !== 'not sent') state.status = decision.status;
  let error: ItemError | undefined;
  let failedStep: EnvelopeStep | undefined;
  try {
    ctx.out.join(envelope.job, envelope.key); // refuses unsafe names before any call
    if (decision.action === 'drift') {
      throw driftError(envelope, tag, decision.envelopeId);
    }
    // This key's envelope is new to its folder (made now, or found on the
    // service for the first time): the folder is to describe it alone.
    const newToFolder =
      decision.action === 'create' ||
      decision.action === 'replace' ||
      (decision.action === 'adopt' && !journalled?.created);
    if (newToFolder) {
      const earlier = await retireEarlierEnvelope(
        ctx.out,
        state.folder,
        decision.action === 'adopt' ? decision.envelopeId : undefined,
      );
      if (earlier?.fate === 'set-aside')
        ctx.emit({
          type: 'warning',
          kind: 'earlier-envelope-set-aside',
          message: `${tag}: ${state.folder}/ held the outputs of envelope ${earlier.envelopeId} (made on another target, or replaced); they are now in ${state.folder}/replaced/${earlier.envelopeId}/ and ${state.folder}/replaced/${earlier.envelopeId}.json`,
        });
    }
    // Adopted from the service's listing: the journal learns which envelope this identity is once the
    // losing drafts are deleted (after the confirm, when there is one), so that the next run decides
    // from the journal and does not adopt it again (issue 25: each re-run re-made its addresses).
    let adoption = decision.action === 'adopt' && !journalled?.created ? decision : undefined;
    const recordAdoption = () => {
      if (!adoption) return;
      journalBehind(state, ctx, {
        kind: 'envelope',
        id: tag,
        step: 'created',
        envelopeId: adoption.envelopeId,
        digest: envelope.digest,
        // A copy this run's Bulk Send made is created by the run, as one it created itself.
        ...(adoption.bulkSent ? {} : { adopted: true }),
      });
      if (!adoption.draft)
        journalBehind(state, ctx, { kind: 'envelope', id: tag, step: 'sent', envelopeId: adoption.envelopeId });
      adoption = undefined;
    };
    for (const step of plan.steps) {
      failedStep = step;
      if (step !== 'confirm') recordAdoption();
      ctx.emit({ type: 'envelope:step', job: envelope.job, key: envelope.key, step });
      await steps[step](envelope, state, ctx, tag, plan);
      state.lastStep = step;
    }
    recordAdoption();
    failedStep = undefined;
  } catch (caught) {
    error = itemErrorOf(caught, failedStep);
  }
  const outputError = await settleOutputs(envelope, state, ctx, decision.action === 'drift', journalled);
  error ??= outputError;
  listEarlierFiles(state, journalled);
  if (state.outcomes.length === 0) state.outcomes = outcomesOf(envelope, plan.steps.includes('views'));
  if (facts) state.outcomes = withRecipientFacts(state.outcomes, facts);
  return resultOf(envelope, state, ctx.usageOf(tag), { startedAt, endedAt: ctx.now(), facts, error });
}

/**
 * Waits for what the envelope wrote behind its calls: envelope.json (where
 * the envelope stands now, written by every run that has its id, no call
 * needed), the files committed (each journalled once in place: the record
 * names bytes that exist) and the journal's records. Returns the first
 * failure among them.
 */
async function settleOutputs(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  drifted: boolean,
  journalled: EnvelopeProgress | undefined,
): Promise<ItemError | undefined> {
  let error: ItemError | undefined;
  if (state.envelopeId && !drifted) {
    try {
      state.commits.push({ committed: keep(state, writeEnvelopeRecordBehind(envelope, state, ctx)).committed });
    } catch (caught) {
      error ??= itemErrorOf(caught, 'outputs');
    }
  }
  for (const { committed, records } of state.commits) {
    try {
      await committed;
      // Appended together, in order: one write and fsync for a file's records
      // (two views), not one after the other. A refusal fails the rest too.
      await Promise.all((records ?? []).map((record) => ctx.journal.append(record)));
    } catch (caught) {
      error ??= itemErrorOf(caught, 'outputs');
    }
  }
  for (const written of state.journalling) {
    try {
      await written;
    } catch (caught) {
      error ??= itemErrorOf(caught, 'journal');
    }
  }
  // signing.json of an earlier run, when this one asked for no address: listed in the report as it is on disk
  // (read for the report only; nothing is decided from it).
  const signingPath = itemFile(state.folder, 'signing');
  if (!state.files.has(signingPath) && journalled && journalled.views.size > 0) {
    const onDisk = await fileDigest(ctx.out.resolve(signingPath)).catch(() => undefined);
    if (onDisk) state.files.set(signingPath, { path: signingPath, ...onDisk });
  }
  return error;
}

/** Files of earlier runs the journal records, listed in the report beside this run's. */
function listEarlierFiles(state: EnvelopeState, journalled: EnvelopeProgress | undefined): void {
  if (!journalled) return;
  for (const d of journalled.documents.values()) if (!state.files.has(d.path)) state.files.set(d.path, d);
  const c = journalled.certificate;
  if (c && !state.files.has(c.path)) state.files.set(c.path, c);
  if (journalled.collected && journalled.collected.envelopeId === state.envelopeId?.toLowerCase())
    for (const f of journalled.collected.files) state.files.set(f.path, f);
}

/** The envelope's result, as the summary and the reports take it. */
function resultOf(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  usage: { calls: number; retries: number },
  end: { startedAt: Date; endedAt: Date; facts: EnvelopeStatusFacts | undefined; error: ItemError | undefined },
): EnvelopeResult {
  const { facts, error } = end;
  const result: EnvelopeResult = {
    job: envelope.job,
    key: envelope.key,
    source: envelope.source,
    outcome: error ? 'failed' : 'succeeded',
    recipients: state.outcomes,
    files: [...state.files.values()].sort((a, b) => a.path.localeCompare(b.path)),
    startedAt: end.startedAt.toISOString(),
    durationMs: end.endedAt.getTime() - end.startedAt.getTime(),
    apiCalls: usage.calls,
    retries: usage.retries,
  };
  if (envelope.row !== undefined) result.row = envelope.row;
  if (envelope.rowSource !== undefined) result.rowSource = envelope.rowSource;
  if (state.adopted) result.adopted = true;
  if (state.envelopeId) result.envelopeId = state.envelopeId;
  if (state.status) result.status = state.status;
  if (facts) copyFacts(result, facts, shownFactFields);
  if (state.lastStep) result.lastStep = state.lastStep;
  if (error) result.error = error;
  return result;
}

type Step = (
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  tag: string,
  plan: EnvelopePlan,
) => Promise<void>;

const steps: Record<EnvelopeStep, Step> = {
  draft: stepDraft,
  confirm: stepConfirm,
  docgen: stepDocGen,
  send: stepSend,
  views: stepViews,
  documents: stepDocuments,
  certificate: stepCertificate,
};

/**
 * Creates the envelope. When runners may race (a confirm follows), as a
 * draft: a duplicate draft is harmless (the confirm deletes it), so the
 * client may repeat the call after a failure the service may have acted on,
 * within its one bounded number of attempts. Otherwise (the run's own
 * in-process sandbox) directly with its status, never repeated blindly.
 */
async function stepDraft(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  tag: string,
  plan: EnvelopePlan,
): Promise<void> {
  const arbitrate = plan.steps.includes('confirm');
  // Word letters go as DocuSign's API takes them (its example 42): a draft marked isDocGenDocument,
  // whose values the docgen step sets (PUT …/docGenFormFields) before it is sent.
  const docGen = plan.steps.includes('docgen');
  const definition = await envelopeDefinitionOf(envelope, ctx.validatedDocuments);
  if (arbitrate || docGen) definition.status = 'created';
  if (docGen) definition.documents = definition.documents?.map(({ docGenFormFields: _values, ...d }) => d);
  journalBehind(state, ctx, {
    kind: 'envelope',
    id: tag,
    step: 'create-intent',
    digest: envelope.digest,
    transactionId: transactionIdOf(envelope),
  });
  let summary;
  try {
    summary = await ctx.account.createEnvelope(definition, {
      tag,
      repeatable: arbitrate,
      priority: priorityOf(ctx, 'draft'),
    });
  } catch (error) {
    // Every attempt may have committed a draft whose answer was lost: failing
    // here would leave them behind, unconfirmed and undeleted. The confirm asks
    // the listing instead, which finds them, keeps the earliest and deletes the rest.
    if (!arbitrate || !mayHaveActed(error) || !(error instanceof Error)) throw error;
    state.draftUnanswered = error;
    return;
  }
  state.envelopeId = summary.envelopeId;
  state.status = summary.status ?? definition.status;
  if (arbitrate) {
    state.draftId = summary.envelopeId;
    journalBehind(state, ctx, {
      kind: 'envelope',
      id: tag,
      step: 'draft',
      envelopeId: summary.envelopeId,
      digest: envelope.digest,
    });
  } else {
    // Not arbitrated (the run's own in-process sandbox): the envelope this identity is, draft or sent.
    journalBehind(state, ctx, {
      kind: 'envelope',
      id: tag,
      step: 'created',
      envelopeId: summary.envelopeId,
      digest: envelope.digest,
    });
  }
}

/**
 * Asks the service which envelope of this identity counts (a listing that
 * started after this run's draft was answered; shared with the other drafts
 * of the batch), deletes the drafts that lost, and takes the winner: this
 * run's draft, or another runner's (then adopted: whoever sends it, it is
 * sent once). See docs/exactly-once.md, "Runners racing".
 */
async function stepConfirm(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const ledger = ctx.ledger;
  if (!ledger) throw new Error('confirm needs the service listing');
  const madeDraft = state.draftId !== undefined || state.draftUnanswered !== undefined;
  if (madeDraft) await ledger.refresh(envelope.job);
  const winner = ledger.winnerOf(tag);
  // The create's answers were all lost and the listing shows no draft: nothing was created.
  if (!winner && state.draftUnanswered !== undefined) throw state.draftUnanswered;
  if (!winner) {
    throw new SignrunError(
      'SR_ENVELOPE_FAILED',
      `${tag}: draft ${state.draftId ?? '?'} was created but the service's listing does not show it; nothing was sent. Run again: the next run finds it.`,
      { location: envelope.source },
    );
  }
  const losers = ledger.losersOf(tag, winner);
  if (losers.length > 0) {
    await deleteLosingDrafts(
      ctx.account,
      losers.map((l) => l.envelopeId),
      tag,
      priorityOf(ctx, 'confirm'),
    );
    for (const loser of losers) {
      ledger.note(tag, loser.envelopeId, 'deleted');
      if (loser.envelopeId === state.draftId)
        journalBehind(state, ctx, { kind: 'envelope', id: tag, step: 'discarded', envelopeId: loser.envelopeId });
    }
  }
  if (winner.digest !== undefined && winner.digest !== envelope.digest) {
    throw driftError(envelope, tag, winner.envelopeId);
  }
  if (!madeDraft) return; // adopted by the plan: only the losers were left to delete
  state.envelopeId = winner.envelopeId;
  state.status = winner.status;
  // A draft whose create answer was lost is this run's, but it learnt its id from the listing, as for an adopted one.
  state.adopted = winner.envelopeId !== state.draftId;
  journalBehind(state, ctx, {
    kind: 'envelope',
    id: tag,
    step: 'created',
    envelopeId: winner.envelopeId,
    digest: envelope.digest,
    ...(state.adopted ? { adopted: true } : {}),
  });
}

/**
 * Deletes drafts that lost (PUT …/folders/recyclebin). Another runner may
 * delete (or send) one of them first, and the service then refuses the whole
 * request at that envelope: each is then deleted on its own, a refusal
 * meaning only that it is gone already. What matters is that none is sent.
 */
export async function deleteLosingDrafts(
  account: AccountClient,
  envelopeIds: string[],
  tag: string,
  priority = requestPriority.usual.confirm,
): Promise<void> {
  try {
    await account.deleteDrafts(envelopeIds, { tag, priority });
  } catch (error) {
    if (!serviceErrorMeans(error, 'envelope-status-moved-on')) throw error;
    if (envelopeIds.length === 1) return;
    for (const id of envelopeIds) {
      try {
        await account.deleteDrafts([id], { tag, priority });
      } catch (each) {
        if (!serviceErrorMeans(each, 'envelope-status-moved-on')) throw each;
      }
    }
  }
}

/** Sets the draft's Word letters' values (DocuSign generates them), once its envelope is the identity's. */
async function stepDocGen(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const envelopeId = need(state.envelopeId);
  // Sent already (another runner took it on): its letters were generated before it went.
  if (state.status !== undefined && state.status !== 'created') return;
  await setDocGenFormFields(envelope, envelopeId, ctx.account, tag, priorityOf(ctx, 'docgen'));
  journalBehind(state, ctx, { kind: 'envelope', id: tag, step: 'docgen', envelopeId });
}

/** Sends the draft that counts. Another runner may have sent it first: the service refuses a second send (ENVELOPE_INVALID_STATUS). */
async function stepSend(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const envelopeId = need(state.envelopeId);
  // Unknown (a run resumed after the journal's `created`, before its `sent`): send; a second send is refused, which is fine.
  if (state.status === undefined || state.status === 'created') {
    try {
      await ctx.account.sendDraft(envelopeId, { tag, priority: priorityOf(ctx, 'send') });
    } catch (error) {
      if (!serviceErrorMeans(error, 'envelope-status-moved-on')) throw error;
    }
    ctx.ledger?.note(tag, envelopeId, 'sent');
  }
  state.status = 'sent';
  journalBehind(state, ctx, { kind: 'envelope', id: tag, step: 'sent', envelopeId });
}

/**
 * One signing address per embedded signer whose turn has come; the job
 * knows the recipients (DocuSign finds one by clientUserId, email and
 * userName), so they are not listed first. The addresses go to
 * signing.json (0600); the journal records only until when each works.
 */
async function stepViews(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const envelopeId = need(state.envelopeId);
  const inTurn = new Set(signersInTurn(envelope));
  state.outcomes = outcomesOf(envelope, false);
  const asks: Array<Promise<void>> = [];
  // Journalled once signing.json, which holds the addresses, is on disk: a
  // view recorded before would tell a re-run an address exists that no file has.
  const views: NewJournalRecord[] = [];
  recipientsOf(envelope).forEach((r, i) => {
    if (r.clientUserId === undefined) return;
    const outcome = state.outcomes[i]!;
    const recipientId = r.recipientId ?? '';
    // An in-person signer's session is the host's: the view is asked in the host's name (DocuSign's rule).
    const viewer = r.host ?? { name: r.name, email: r.email };
    const entry: SigningEntry = {
      envelopeId,
      recipientId,
      clientUserId: r.clientUserId,
      email: viewer.email,
      userName: viewer.name,
      state: 'waiting-for-turn',
    };
    if (r.kind !== shorthandRecipientKind) entry.kind = r.kind;
    if (r.host) entry.signerName = r.name;
    if (r.routingOrder !== undefined) entry.routingOrder = r.routingOrder;
    state.signing.push(entry);
    if (!inTurn.has(r) || !envelope.returnUrl) return;
    if (ctx.signingUrls === 'on-demand') {
      // No call: the address is made when the person arrives (links serve, sign-url).
      entry.state = 'on-demand';
      outcome.signing = 'on-demand';
      views.push({ kind: 'envelope', id: tag, step: 'view', recipientId: viewKeyOf(r), expiresAt: '', onDemand: true });
      return;
    }
    const returnUrl = envelope.returnUrl;
    const clientUserId = r.clientUserId;
    asks.push(
      (async () => {
        try {
          const issuedAt = ctx.now();
          const view = await ctx.account.createRecipientView(
            envelopeId,
            {
              returnUrl,
              authenticationMethod: 'none',
              clientUserId,
              email: viewer.email,
              userName: viewer.name,
              ...(recipientId ? { recipientId } : {}),
            },
            { tag, priority: priorityOf(ctx, 'views') },
          );
          const expiresAt = new Date(issuedAt.getTime() + ctx.viewTtlSeconds * 1000).toISOString();
          Object.assign(entry, { state: 'ready', url: view.url, issuedAt: issuedAt.toISOString(), expiresAt });
          outcome.signing = 'ready';
          views.push({ kind: 'envelope', id: tag, step: 'view', recipientId: viewKeyOf(r), expiresAt });
        } catch (error) {
          if (serviceErrorMeans(error, 'recipient-not-in-turn')) return;
          throw error;
        }
      })(),
    );
  });
  await allSettledOrThrow(asks);
  if (state.signing.length > 0) {
    const { committed } = keep(
      state,
      ctx.out.writeJsonBehind(
        itemFile(state.folder, 'signing'),
        {
          job: envelope.job,
          key: envelope.key,
          envelopeId,
          returnUrl: envelope.returnUrl ?? '',
          recipients: state.signing,
        },
        { mode: 0o600 },
      ),
    );
    state.commits.push({ committed, records: views });
  }
}

/**
 * Waits for every call to settle, then throws the first failure: when one
 * of an envelope's overlapping calls fails, the others still finish (their
 * files are kept) and no request outlives the envelope's result.
 */
async function allSettledOrThrow(calls: Array<Promise<unknown>>): Promise<void> {
  const settled = await Promise.allSettled(calls);
  const failed = settled.find((s): s is PromiseRejectedResult => s.status === 'rejected');
  if (failed) throw failed.reason;
}

/**
 * Downloads the documents (`--documents at-send`). The job knows them (id
 * and name): no listing, except for a template's, known only to the service.
 */
async function stepDocuments(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const envelopeId = need(state.envelopeId);
  const done = ctx.progressOf?.(tag)?.documents;
  let documents: Array<{ documentId: string; name: string; announcedBytes?: number }>;
  if (envelope.kind !== 'documents') {
    const listed = await ctx.account.listDocuments(envelopeId, { tag, priority: priorityOf(ctx, 'documents') });
    // DocuSign lists the certificate as a pseudo-document (documentId "certificate", type "summary").
    documents = (listed.envelopeDocuments ?? [])
      .filter((d) => d.documentId !== 'certificate' && d.type !== 'summary')
      .map((d) => {
        const announcedBytes = announcedBytesOf(d);
        return {
          documentId: d.documentId,
          name: d.name ?? `document-${d.documentId}`,
          ...(announcedBytes !== undefined ? { announcedBytes } : {}),
        };
      });
  } else documents = envelope.documents.map((d) => ({ documentId: d.documentId, name: d.name }));
  // The downloads overlap and end in any order; the outputs list them in the envelope's order.
  const kept: FileRecord[] = [];
  const settled = allSettledOrThrow(
    documents
      .filter((d) => !done?.has(d.documentId))
      .map(async (doc, i) => {
        const relative = documentFile(state.folder, doc.documentId, doc.name);
        const file = await ctx.account.downloadDocument(
          envelopeId,
          doc.documentId,
          (body) => ctx.out.writeStreamBehind(relative, body),
          {
            tag,
            priority: priorityOf(ctx, 'documents'),
            ...(doc.announcedBytes !== undefined ? { announcedBytes: doc.announcedBytes } : {}),
          },
        );
        const { record, committed } = keep(state, file);
        kept[i] = record;
        state.commits.push({
          committed,
          records: [{ kind: 'envelope', id: tag, step: 'document', documentId: doc.documentId, ...digestOf(record) }],
        });
      }),
  );
  try {
    await settled;
  } finally {
    for (const record of kept) if (record) state.downloads.push(record);
  }
}

async function stepCertificate(_envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext, tag: string) {
  const relative = itemFile(state.folder, 'certificate');
  const file = await ctx.account.downloadCertificate(
    need(state.envelopeId),
    (body) => ctx.out.writeStreamBehind(relative, body),
    { tag, priority: priorityOf(ctx, 'certificate') },
  );
  const { record, committed } = keep(state, file);
  state.downloads.push(record);
  state.commits.push({ committed, records: [{ kind: 'envelope', id: tag, step: 'certificate', ...digestOf(record) }] });
}

/** Records a file written behind; its commit is awaited (and journalled) before the envelope's result is given. */
function keep(state: EnvelopeState, file: CommittingFile): { record: FileRecord; committed: Promise<void> } {
  const { committed, ...record } = file;
  state.files.set(record.path, record);
  return { record, committed };
}

/** What the journal keeps of a file: where, how big, its sha256. */
function digestOf(record: FileRecord): { path: string; size: number; sha256: string } {
  return { path: record.path, size: record.size, sha256: record.sha256 };
}

/** What happens to each recipient's signing (before any view is asked). */
function outcomesOf(envelope: ResolvedEnvelope, asked: boolean): RecipientOutcome[] {
  const inTurn = new Set(signersInTurn(envelope));
  return recipientsOf(envelope).map((r) => {
    const outcome: RecipientOutcome = {
      recipientId: r.recipientId ?? '',
      kind: r.kind,
      signing: r.clientUserId === undefined ? 'remote' : inTurn.has(r) && !asked ? 'ready' : 'waiting-for-turn',
      // Who, as the job file names them, until a sync says what the service knows.
      name: r.name,
      email: r.email,
    };
    if (r.roleName !== undefined) outcome.roleName = r.roleName;
    if (r.clientUserId !== undefined) outcome.clientUserId = r.clientUserId;
    if (r.routingOrder !== undefined) outcome.routingOrder = r.routingOrder;
    return outcome;
  });
}

/**
 * Each recipient's outcome with what the last sync said of them (issue 12):
 * name, status and since when; `finished` once they signed or declined, or
 * the envelope is settled.
 */
function withRecipientFacts(outcomes: RecipientOutcome[], facts: EnvelopeStatusFacts): RecipientOutcome[] {
  const settled = isSettledEnvelope(facts.status);
  return outcomes.map((o, i) => {
    const f = facts.recipients.find((r) => r.recipientId === o.recipientId) ?? facts.recipients[i];
    if (!f) return o;
    const next: RecipientOutcome = { ...o };
    if (f.name !== undefined) next.name = f.name;
    if (f.email !== undefined) next.email = f.email;
    next.status = f.status;
    const since = recipientStatusAt(f);
    if (since !== undefined) next.statusAt = since;
    if (f.declinedReason !== undefined) next.declinedReason = f.declinedReason;
    if (o.signing !== 'remote' && (settled || recipientHasActed(f.status))) next.signing = 'finished';
    return next;
  });
}

/** envelope.json at the end of the envelope's steps, written behind: an output, never read back to decide. */
function writeEnvelopeRecordBehind(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
): CommittingFile {
  const now = ctx.now().toISOString();
  const recipients: RecipientRecord[] = recipientsOf(envelope).map((r) => {
    const record: RecipientRecord = {
      recipientId: r.recipientId ?? '',
      kind: r.kind,
      name: r.name,
      email: r.email,
    };
    if (r.roleName !== undefined) record.roleName = r.roleName;
    if (r.clientUserId !== undefined) record.clientUserId = r.clientUserId;
    if (r.routingOrder !== undefined) record.routingOrder = r.routingOrder;
    return record;
  });
  const record: EnvelopeRecord = {
    job: envelope.job,
    key: envelope.key,
    envelopeId: need(state.envelopeId),
    digest: envelope.digest,
    transactionId: transactionIdOf(envelope),
    rootUrl: ctx.rootUrl,
    ...(ctx.inProcessSandbox ? { inProcessSandbox: true } : {}),
    accountId: ctx.account.accountId,
    createdAt: ctx.progressOf?.(identityOf(envelope))?.created?.at ?? now,
    updatedAt: now,
    recipients,
    files: downloadsOf(state, ctx.progressOf?.(identityOf(envelope))),
  };
  if (state.status !== undefined) record.status = state.status;
  // Before any sync, each recipient's status is what the routing implies (a later routing order is not notified yet).
  for (const r of recipients) r.status = routedStatus(r, recipients, record.status);
  // What sync recorded in the journal (statuses, dates, reasons, collected files) stays in envelope.json.
  const journalled = ctx.progressOf?.(identityOf(envelope));
  const id = record.envelopeId.toLowerCase();
  const facts = journalled?.status?.envelopeId === id ? journalled.status.facts : undefined;
  const collected = journalled?.collected?.envelopeId === id ? journalled.collected.files : undefined;
  let full = facts ? withFacts(record, facts) : record;
  if (collected) {
    const paths = new Set(collected.map((f) => f.path));
    full = { ...full, files: [...full.files.filter((f) => !paths.has(f.path)), ...collected], collected: true };
  }
  return ctx.out.writeJsonBehind(itemFile(state.folder, 'envelope'), full);
}

/** The documents and certificate: this run's downloads, then those the journal records of earlier runs. */
function downloadsOf(state: EnvelopeState, journalled: EnvelopeProgress | undefined): FileRecord[] {
  const all = new Map(state.downloads.map((f) => [f.path, f]));
  for (const d of journalled?.documents.values() ?? []) if (!all.has(d.path)) all.set(d.path, d);
  const c = journalled?.certificate;
  if (c && !all.has(c.path)) all.set(c.path, c);
  return [...all.values()];
}

function need(envelopeId: string | undefined): string {
  if (!envelopeId) throw new Error('envelope step ran before the envelope was created');
  return envelopeId;
}

/** A failure as the report shows it. */
/**
 * SR_ENVELOPE_DRIFT: the envelope was sent with other content. Never sent
 * again; the message names the two ways out.
 */
function driftError(envelope: ResolvedEnvelope, tag: string, envelopeId: string): SignrunError {
  return new SignrunError(
    'SR_ENVELOPE_DRIFT',
    `${tag} exists as envelope ${envelopeId} with other content: it is not sent again. To send the new content, \`npx signrun run <paths> --replace-drifted\` voids that envelope and sends this one under the same key; or give it a new key`,
    { location: envelope.rowSource ?? envelope.source, details: { envelopeId } },
  );
}

export function itemErrorOf(error: unknown, step: string | undefined): ItemError {
  const item: ItemError = isSignrunError(error)
    ? { code: error.code, message: error.message }
    : { code: 'SR_INTERNAL', message: error instanceof Error ? error.message : String(error) };
  if (step !== undefined) item.step = step;
  if (error instanceof ClientHttpError) {
    item.status = error.status;
    if (error.serviceErrorCode !== undefined) item.serviceErrorCode = error.serviceErrorCode;
  }
  return item;
}
