import type { ResolvedEnvelope, ResolvedRole, ResolvedSigner } from '../jobs/model.js';
import type { AccountClient } from '../client/esignature-client.js';
import { ClientHttpError, ClientNetworkError } from '../client/client-errors.js';
import { createOnce } from '../state/create-once.js';
import type { Journal } from '../state/journal.js';
import type { EnvelopeProgress } from '../state/journal-progress.js';
import type { ServiceFailure } from '../state/service-error-classes.js';
import type { Signer } from '../client/wire-types.js';
import { SignrunError, isSignrunError } from '../errors/signrun-error.js';
import type { CommittingFile, FileRecord, OutputFolder } from '../output/output-folder.js';
import { safeFileName } from '../output/output-folder.js';
import { fileDigest } from '../output/file-digest.js';
import {
  itemFolder,
  readRecord,
  type EnvelopeRecord,
  type RecipientRecord,
  type SigningEntry,
  type SigningRecord,
} from '../output/records.js';
import { envelopeDefinitionOf } from './envelope-definition.js';
import { findByIdentity } from './find-by-identity.js';
import { identityOf, transactionIdOf } from './identity.js';
import { envelopeSteps, type EnvelopeStep, type RunEventListener } from './run-events.js';
import type { EnvelopeResult, ItemError, RecipientOutcome } from './run-summary.js';
import { isSettled, recipientStatusAt } from '../sync/status-facts.js';

/** What the envelope pipeline needs from the run. */
export interface EnvelopeContext {
  account: AccountClient;
  out: OutputFolder;
  rootUrl: string;
  emit: RunEventListener;
  now: () => Date;
  /** Lifetime the service gives a signing address, seconds (DocuSign: 300). Default 300. */
  viewTtlSeconds: number;
  /** Calls and retries made so far under a tag. */
  usageOf(tag: string): { calls: number; retries: number };
  /**
   * Adopt the envelope of an envelope.json left by an earlier run against
   * the same service and account instead of creating it again. False for an
   * in-process sandbox (it died with the earlier run). Default true.
   */
  adoptEarlier?: boolean;
  /** Where createOnce records intents and creations. Default: none (a journal comes with issue 6). */
  journal?: Journal;
  /** What the journal of earlier runs says of an envelope. */
  progressOf?: (id: string) => EnvelopeProgress | undefined;
}

/** The state one envelope carries from step to step. */
interface EnvelopeState {
  folder: string;
  envelopeId?: string;
  status?: string;
  adopted: boolean;
  createdAt?: string;
  recipients: RecipientRecord[];
  currentRoutingOrder?: string;
  outcomes: RecipientOutcome[];
  signing: SigningEntry[];
  /** Documents and certificate downloaded. */
  downloads: FileRecord[];
  /** Every file written (envelope.json and signing.json included). */
  files: Map<string, FileRecord>;
  /** Commits of files written behind (fsync, rename), awaited before the result is given. */
  commits: Array<Promise<void>>;
  lastStep?: EnvelopeStep;
  /**
   * What an earlier run wrote for this same envelope (adopted): recipients,
   * signing addresses still valid, files still intact are reused instead of
   * asked for again (issue 6: finished steps are skipped).
   */
  resume?: { record: EnvelopeRecord; signing?: SigningRecord; intact: Set<string> };
}

/** A signing address with less than this left is asked for again. */
const minViewLifeMs = 60_000;

/** A journal that keeps nothing: createOnce without a state folder (the journal comes with issue 6). */
const noJournal: Journal = { path: '', append: async () => {}, close: async () => {} };

/** A client error as the classification table reads it. */
function describeFailure(error: unknown): ServiceFailure {
  if (error instanceof ClientHttpError)
    return { status: error.status, ...(error.serviceErrorCode ? { errorCode: error.serviceErrorCode } : {}) };
  if (error instanceof ClientNetworkError) return { network: true };
  return {};
}

/** DocuSign answers this when a recipient's routing order has not come yet. */
const notInTurnCodes = /RECIPIENT_NOT_IN_SEQUENCE|OUT_OF_SEQUENCE|NOT_IN_SEQUENCE/;

/**
 * Runs one envelope through the sequence of service-api.md 4.12: create →
 * list recipients → a signing view per embedded recipient → list documents →
 * download each → download the certificate. Each step is an explicit entry
 * of {@link envelopeSteps}. The envelopeId is never lost: the journal records
 * it (or, with no journal, envelope.json is written right after creation).
 * Never throws: failures become the result.
 */
export async function runEnvelope(envelope: ResolvedEnvelope, ctx: EnvelopeContext): Promise<EnvelopeResult> {
  const tag = identityOf(envelope);
  const startedAt = ctx.now();
  const state: EnvelopeState = {
    folder: itemFolder(envelope.job, envelope.key),
    adopted: false,
    recipients: [],
    outcomes: [],
    signing: [],
    downloads: [],
    files: new Map(),
    commits: [],
  };
  ctx.out.join(envelope.job, envelope.key); // refuses unsafe names before any call
  // `status: voided` in the job file: never created; voided (once) before the
  // run by the sync it starts with (src/sync/void-declared.ts), so here the
  // envelope is only reported as its envelope.json says.
  if (envelope.status === 'voided') return voidedResult(envelope, state, ctx, startedAt);
  const steps: Record<EnvelopeStep, () => Promise<void>> = {
    create: () => stepCreate(envelope, state, ctx, tag),
    recipients: () => stepRecipients(envelope, state, ctx, tag),
    views: () => stepViews(envelope, state, ctx, tag),
    documents: () => stepDocuments(state, ctx, tag),
    certificate: () => stepCertificate(state, ctx, tag),
  };
  let error: ItemError | undefined;
  let failedStep: EnvelopeStep | undefined;
  try {
    for (const step of envelopeSteps) {
      failedStep = step;
      ctx.emit({ type: 'envelope:step', job: envelope.job, key: envelope.key, step });
      await steps[step]();
      state.lastStep = step;
    }
    failedStep = undefined;
  } catch (caught) {
    error = itemErrorOf(caught, failedStep);
  }
  if (state.envelopeId) {
    try {
      keep(state, writeEnvelopeRecordBehind(envelope, state, ctx));
    } catch (caught) {
      error ??= itemErrorOf(caught, 'outputs');
    }
  }
  // Files were written behind the API calls; the envelope is done only when
  // every one of them is in place.
  for (const committed of state.commits) {
    try {
      await committed;
    } catch (caught) {
      error ??= itemErrorOf(caught, 'outputs');
    }
  }
  const usage = ctx.usageOf(tag);
  const result: EnvelopeResult = {
    job: envelope.job,
    key: envelope.key,
    source: envelope.source,
    outcome: error ? 'failed' : 'succeeded',
    recipients: state.outcomes,
    files: [...state.files.values()].sort((a, b) => a.path.localeCompare(b.path)),
    startedAt: startedAt.toISOString(),
    durationMs: ctx.now().getTime() - startedAt.getTime(),
    apiCalls: usage.calls,
    retries: usage.retries,
  };
  if (envelope.row !== undefined) result.row = envelope.row;
  if (state.adopted) result.adopted = true;
  if (state.envelopeId) result.envelopeId = state.envelopeId;
  if (state.status) result.status = state.status;
  const earlier = state.resume?.record;
  if (earlier?.status === state.status && earlier) {
    if (earlier.statusAt !== undefined) result.statusAt = earlier.statusAt;
    if (earlier.voidedReason !== undefined) result.voidedReason = earlier.voidedReason;
    if (earlier.declinedReason !== undefined) result.declinedReason = earlier.declinedReason;
  }
  if (state.lastStep) result.lastStep = state.lastStep;
  if (error) result.error = error;
  return result;
}

/** The result of an envelope the job file declares voided: no call, what envelope.json says. */
async function voidedResult(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  startedAt: Date,
): Promise<EnvelopeResult> {
  const record = await readRecord<EnvelopeRecord>(ctx.out.root, `${state.folder}/envelope.json`);
  const result: EnvelopeResult = {
    job: envelope.job,
    key: envelope.key,
    source: envelope.source,
    outcome: 'succeeded',
    recipients: [],
    files: record?.files ?? [],
    startedAt: startedAt.toISOString(),
    durationMs: ctx.now().getTime() - startedAt.getTime(),
    apiCalls: 0,
    retries: 0,
  };
  if (envelope.row !== undefined) result.row = envelope.row;
  if (record) {
    result.adopted = true;
    result.envelopeId = record.envelopeId;
    if (record.status !== undefined) result.status = record.status;
    if (record.voidedReason !== undefined) result.voidedReason = record.voidedReason;
    if (record.statusAt !== undefined) result.statusAt = record.statusAt;
  }
  return result;
}

async function stepCreate(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  tag: string,
): Promise<void> {
  // An envelope.json from an earlier run into the same folder means the
  // contract was already sent: adopt it, never send it twice (DESIGN.md, exactly once).
  const earlier =
    ctx.adoptEarlier === false
      ? undefined
      : await readRecord<EnvelopeRecord>(ctx.out.root, `${state.folder}/envelope.json`);
  if (earlier?.envelopeId && earlier.accountId === ctx.account.accountId && earlier.rootUrl === ctx.rootUrl) {
    if (earlier.digest !== envelope.digest) {
      throw new SignrunError(
        'SR_ENVELOPE_DRIFT',
        `${tag} was sent as envelope ${earlier.envelopeId} by an earlier run and its content has changed since`,
        {
          location: envelope.source,
          details: { envelopeId: earlier.envelopeId },
        },
      );
    }
    state.envelopeId = earlier.envelopeId;
    if (earlier.status !== undefined) state.status = earlier.status;
    state.createdAt = earlier.createdAt;
    state.adopted = true;
    await loadResume(state, ctx, earlier);
    return;
  }
  const definition = await envelopeDefinitionOf(envelope);
  // Exactly once (docs/exactly-once.md): createOnce never repeats a create the
  // service may have committed (5xx, connection reset after sending) without
  // first looking the envelope up by its identity custom field.
  const outcome = await createOnce({
    id: tag,
    digest: envelope.digest,
    transactionId: transactionIdOf(envelope),
    journal: ctx.journal ?? noJournal,
    ...(ctx.progressOf?.(tag) ? { progress: ctx.progressOf(tag) } : {}),
    // With a state folder, an identity the journal has never seen is looked up
    // before its first create: the folder may have been lost or moved, or
    // another checkout sent it (one call per envelope new to the journal).
    // An identity the journal knows needs no lookup unless an intent is
    // unanswered; one follows every failed create. Without a state folder
    // (the in-process sandbox, new with each run) nothing can exist yet.
    firstLookup: ctx.journal && !ctx.progressOf?.(tag) ? 'always' : 'if-intent',
    maxAttempts: 4,
    lookup: () => findByIdentity(ctx.account, tag, { tag }),
    create: async () => {
      const summary = await ctx.account.createEnvelope(definition, { tag });
      if (summary.status !== undefined) state.status = summary.status;
      return summary;
    },
    describe: describeFailure,
    retryDelayMs: (attempt, error, verdict) => {
      // Rate limits were already waited for, within the policy, by the
      // client's retry layer; repeating here would only spend calls.
      if (verdict.class === 'retry-later') throw error;
      return Math.min(8_000, 250 * 2 ** (attempt - 1));
    },
  });
  if (outcome.outcome === 'drift') {
    throw new SignrunError(
      'SR_ENVELOPE_DRIFT',
      `${tag} exists as envelope ${outcome.envelopeId} with other content: it is not sent again`,
      {
        location: envelope.source,
        details: { envelopeId: outcome.envelopeId },
      },
    );
  }
  state.envelopeId = outcome.envelopeId;
  if (outcome.outcome === 'adopted') {
    state.adopted = true;
    // Adopted from the journal or the service: an envelope.json of the same envelope may still hold its outputs.
    if (earlier?.envelopeId === outcome.envelopeId) {
      state.createdAt = earlier.createdAt;
      if (earlier.status !== undefined) state.status ??= earlier.status;
      await loadResume(state, ctx, earlier);
    }
  }
  state.createdAt ??= ctx.now().toISOString();
  // The envelopeId must survive a crash from here on. The journal's fsync'ed
  // `created` record does that when there is a journal; without one,
  // envelope.json is the record a later run adopts, so it is written now
  // rather than only when the envelope's steps end. (An in-process sandbox
  // dies with the run: nothing there could be adopted.)
  if (!ctx.journal && ctx.adoptEarlier !== false) await writeEnvelopeRecord(envelope, state, ctx);
}

/** Reads what an earlier run left for this envelope, and which of its files are still intact (size and sha256). */
async function loadResume(state: EnvelopeState, ctx: EnvelopeContext, record: EnvelopeRecord): Promise<void> {
  const signing = await readRecord<SigningRecord>(ctx.out.root, `${state.folder}/signing.json`);
  const intact = new Set<string>();
  for (const file of record.files ?? []) {
    const now = await fileDigest(ctx.out.resolve(file.path));
    if (now && now.size === file.size && now.sha256 === file.sha256) intact.add(file.path);
  }
  state.resume = { record, ...(signing?.envelopeId === record.envelopeId ? { signing } : {}), intact };
}

/** Reuses an intact file of an earlier run. */
function reuse(state: EnvelopeState, relative: string): boolean {
  const file = state.resume?.intact.has(relative)
    ? state.resume.record.files.find((f) => f.path === relative)
    : undefined;
  if (!file) return false;
  state.downloads.push(file);
  state.files.set(file.path, file);
  return true;
}

async function stepRecipients(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  tag: string,
): Promise<void> {
  if (state.resume && state.resume.record.recipients.length > 0) {
    state.recipients = state.resume.record.recipients;
    return;
  }
  const listed = await ctx.account.listRecipients(need(state.envelopeId), { tag });
  const signers = listed.signers ?? [];
  if (listed.currentRoutingOrder !== undefined) state.currentRoutingOrder = listed.currentRoutingOrder;
  const ours: Array<ResolvedSigner | ResolvedRole> =
    envelope.kind === 'template' ? envelope.templateRoles : envelope.recipients;
  state.recipients = signers.map((s, index) => recipientRecordOf(s, matchOurs(s, index, ours)));
}

/** Pairs a listed signer with the job's recipient: by recipientId, then roleName, clientUserId, then order (service-api.md 4.6 keeps the order). */
function matchOurs(
  signer: Signer,
  index: number,
  ours: Array<ResolvedSigner | ResolvedRole>,
): ResolvedSigner | ResolvedRole | undefined {
  return (
    ours.find((o) => 'recipientId' in o && o.recipientId === signer.recipientId) ??
    ours.find((o) => 'roleName' in o && signer.roleName !== undefined && o.roleName === signer.roleName) ??
    ours.find((o) => o.clientUserId !== undefined && o.clientUserId === signer.clientUserId) ??
    ours[index]
  );
}

function recipientRecordOf(signer: Signer, ours: ResolvedSigner | ResolvedRole | undefined): RecipientRecord {
  const record: RecipientRecord = {
    recipientId: signer.recipientId ?? ('recipientId' in (ours ?? {}) ? (ours as ResolvedSigner).recipientId : ''),
  };
  const name = signer.name ?? ours?.name;
  const email = signer.email ?? ours?.email;
  const roleName = signer.roleName ?? (ours && 'roleName' in ours ? ours.roleName : undefined);
  const clientUserId = signer.clientUserId ?? ours?.clientUserId;
  if (name !== undefined) record.name = name;
  if (email !== undefined) record.email = email;
  if (roleName !== undefined) record.roleName = roleName;
  if (clientUserId !== undefined) record.clientUserId = clientUserId;
  if (signer.userId !== undefined) record.userId = signer.userId;
  const routingOrder = signer.routingOrder ?? ours?.routingOrder;
  if (routingOrder !== undefined) record.routingOrder = routingOrder;
  if (signer.status !== undefined) record.status = signer.status;
  return record;
}

async function stepViews(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
  tag: string,
): Promise<void> {
  const envelopeId = need(state.envelopeId);
  const current = state.currentRoutingOrder === undefined ? undefined : Number(state.currentRoutingOrder);
  const draft = state.status === 'created';
  // Completed, declined or voided (as the last sync recorded): nobody signs
  // any more, so no address is asked for (the service would refuse it, and
  // the run would fail for a person's "no").
  const settled = isSettled(state.status);
  /** Views to ask for: recipients whose turn has come sign independently of each other, so the calls overlap. */
  const asks: Array<() => Promise<void>> = [];
  for (const r of state.recipients) {
    const outcome: RecipientOutcome = { recipientId: r.recipientId, signing: 'remote' };
    // Who, and what the last sync said of them (report: who is still to sign).
    if (r.name !== undefined) outcome.name = r.name;
    if (r.email !== undefined) outcome.email = r.email;
    if (r.status !== undefined) outcome.status = r.status;
    const since = recipientStatusAt(r);
    if (since !== undefined) outcome.statusAt = since;
    if (r.declinedReason !== undefined) outcome.declinedReason = r.declinedReason;
    if (r.roleName !== undefined) outcome.roleName = r.roleName;
    if (r.clientUserId !== undefined) outcome.clientUserId = r.clientUserId;
    if (r.routingOrder !== undefined) outcome.routingOrder = r.routingOrder;
    state.outcomes.push(outcome);
    if (r.clientUserId === undefined) continue;
    if (settled || r.status === 'completed' || r.status === 'declined') {
      outcome.signing = 'finished';
      continue;
    }
    const entry: SigningEntry = {
      envelopeId,
      recipientId: r.recipientId,
      clientUserId: r.clientUserId,
      email: r.email ?? '',
      userName: r.name ?? '',
      state: 'waiting-for-turn',
    };
    if (r.userId !== undefined) entry.userId = r.userId;
    if (r.routingOrder !== undefined) entry.routingOrder = r.routingOrder;
    const prior = state.resume?.signing?.recipients.find(
      (p) => p.recipientId === r.recipientId && p.clientUserId === r.clientUserId,
    );
    if (
      prior?.state === 'ready' &&
      prior.url &&
      prior.expiresAt &&
      Date.parse(prior.expiresAt) - ctx.now().getTime() > minViewLifeMs
    ) {
      state.signing.push(prior);
      outcome.signing = 'ready';
      continue;
    }
    // An envelope sent by an earlier run keeps the addresses it was given:
    // they are refreshed on demand (`signrun sign-url`, when someone is about
    // to sign), not by every run — a cron re-run would otherwise spend a call
    // per signer and envelope for addresses nobody opens (issue 12).
    if (prior && state.adopted) {
      state.signing.push(prior);
      outcome.signing = prior.state;
      continue;
    }
    state.signing.push(entry);
    // A draft has no signing yet, and a later routing order cannot sign before
    // the current one (DocuSign answers RECIPIENT_NOT_IN_SEQUENCE): both wait.
    const later = current !== undefined && r.routingOrder !== undefined && Number(r.routingOrder) > current;
    if (draft || later || !envelope.returnUrl) {
      outcome.signing = 'waiting-for-turn';
      continue;
    }
    const returnUrl = envelope.returnUrl;
    const clientUserId = r.clientUserId;
    asks.push(async () => {
      try {
        const issuedAt = ctx.now();
        const view = await ctx.account.createRecipientView(
          envelopeId,
          {
            returnUrl,
            authenticationMethod: 'none',
            clientUserId,
            email: entry.email,
            userName: entry.userName,
            recipientId: r.recipientId,
            ...(r.userId !== undefined ? { userId: r.userId } : {}),
          },
          { tag },
        );
        entry.state = 'ready';
        entry.url = view.url;
        entry.issuedAt = issuedAt.toISOString();
        entry.expiresAt = new Date(issuedAt.getTime() + ctx.viewTtlSeconds * 1000).toISOString();
        outcome.signing = 'ready';
      } catch (error) {
        if (error instanceof ClientHttpError && notInTurnCodes.test(error.serviceErrorCode ?? '')) {
          outcome.signing = 'waiting-for-turn';
          return;
        }
        throw error;
      }
    });
  }
  await allSettledOrThrow(asks.map((ask) => ask()));
  if (state.signing.length > 0) {
    const record: SigningRecord = {
      job: envelope.job,
      key: envelope.key,
      envelopeId,
      returnUrl: envelope.returnUrl ?? '',
      recipients: state.signing,
    };
    keep(state, ctx.out.writeJsonBehind(`${state.folder}/signing.json`, record, { mode: 0o600 }));
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

async function stepDocuments(state: EnvelopeState, ctx: EnvelopeContext, tag: string): Promise<void> {
  const envelopeId = need(state.envelopeId);
  const earlierDocuments = (state.resume?.record.files ?? []).filter((f) =>
    f.path.startsWith(`${state.folder}/documents/`),
  );
  if (earlierDocuments.length > 0 && earlierDocuments.every((f) => state.resume?.intact.has(f.path))) {
    for (const f of earlierDocuments) reuse(state, f.path);
    return;
  }
  const listed = await ctx.account.listDocuments(envelopeId, { tag });
  // DocuSign lists the certificate as a pseudo-document (documentId
  // "certificate", type "summary"); it is downloaded by its own step.
  const documents = (listed.envelopeDocuments ?? []).filter(
    (d) => d.documentId !== 'certificate' && d.type !== 'summary',
  );
  // The downloads are independent: they overlap (each streams to its own temp
  // file), and are listed in the service's order whichever finishes first.
  const downloaded: Array<FileRecord | undefined> = [];
  try {
    await allSettledOrThrow(
      documents.map(async (doc, i) => {
        let name = safeFileName(doc.name ?? `document-${doc.documentId}`);
        if (!/\.pdf$/i.test(name)) name += '.pdf';
        const relative = `${state.folder}/documents/${safeFileName(doc.documentId)}-${name}`;
        if (reuse(state, relative)) return;
        const file = await ctx.account.downloadDocument(
          envelopeId,
          doc.documentId,
          (body) => ctx.out.writeStreamBehind(relative, body),
          { tag },
        );
        downloaded[i] = keep(state, file);
      }),
    );
  } finally {
    // Those that succeeded are kept even when another failed.
    for (const file of downloaded) if (file) state.downloads.push(file);
  }
}

async function stepCertificate(state: EnvelopeState, ctx: EnvelopeContext, tag: string): Promise<void> {
  const relative = `${state.folder}/certificate.pdf`;
  if (reuse(state, relative)) return;
  const file = await ctx.account.downloadCertificate(
    need(state.envelopeId),
    (body) => ctx.out.writeStreamBehind(relative, body),
    { tag },
  );
  state.downloads.push(keep(state, file));
}

/** Records a file written behind; its commit is awaited before the envelope's result is given. */
function keep(state: EnvelopeState, file: CommittingFile): FileRecord {
  const { committed, ...record } = file;
  state.commits.push(committed);
  state.files.set(record.path, record);
  return record;
}

/** envelope.json, written now (the record of a send when there is no journal). */
async function writeEnvelopeRecord(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
): Promise<void> {
  const file = await ctx.out.writeJson(`${state.folder}/envelope.json`, envelopeRecordOf(envelope, state, ctx));
  state.files.set(file.path, file);
}

/** envelope.json at the end of the envelope's steps, written behind. */
function writeEnvelopeRecordBehind(
  envelope: ResolvedEnvelope,
  state: EnvelopeState,
  ctx: EnvelopeContext,
): CommittingFile {
  return ctx.out.writeJsonBehind(`${state.folder}/envelope.json`, envelopeRecordOf(envelope, state, ctx));
}

function envelopeRecordOf(envelope: ResolvedEnvelope, state: EnvelopeState, ctx: EnvelopeContext): EnvelopeRecord {
  const now = ctx.now().toISOString();
  const record: EnvelopeRecord = {
    job: envelope.job,
    key: envelope.key,
    envelopeId: need(state.envelopeId),
    digest: envelope.digest,
    transactionId: transactionIdOf(envelope),
    rootUrl: ctx.rootUrl,
    accountId: ctx.account.accountId,
    createdAt: state.createdAt ?? now,
    updatedAt: now,
    recipients: state.recipients,
    files: state.downloads,
  };
  if (state.status !== undefined) record.status = state.status;
  // What `sync` recorded (dates, reasons, collected, replaced) stays: a run rewrites only its own fields.
  const earlier = state.resume?.record;
  if (earlier?.envelopeId === record.envelopeId) {
    for (const key of syncFields) if (earlier[key] !== undefined) Object.assign(record, { [key]: earlier[key] });
  }
  return record;
}

/** The fields of envelope.json that `sync` writes (issue 12). */
const syncFields = [
  'statusAt',
  'sentAt',
  'deliveredAt',
  'completedAt',
  'declinedAt',
  'voidedAt',
  'voidedReason',
  'declinedReason',
  'syncedAt',
  'collected',
  'replaced',
] as const satisfies ReadonlyArray<keyof EnvelopeRecord>;

function need(envelopeId: string | undefined): string {
  if (!envelopeId) throw new Error('envelope step ran before the envelope was created');
  return envelopeId;
}

/** A failure as the report shows it. */
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
