import path from 'node:path';
import type { ResolvedEnvelope } from '../jobs/model.js';
import type { AccountClient } from '../client/esignature-client.js';
import type { OutputFolder, FileRecord } from '../output/output-folder.js';
import { folderEntries, readRecord, type EnvelopeRecord, type SigningRecord } from '../output/records.js';
import { itemFile, itemFolder, jobFormDataFile } from '../output/output-paths.js';
import type { FormDataJson } from '../output/records.js';
import { formDataCsv, type FormDataRow } from './form-data-csv.js';
import { copyFacts, shownFactFields } from '../output/status-fields.js';
import { identityOf, transactionIdOf } from '../runner/identity.js';
import type { EnvelopeResult, FormDataSources, RunSummary } from '../runner/run-summary.js';
import { itemErrorOf } from '../runner/envelopes/envelope-pipeline.js';
import { commandRun, type CommandRunOptions } from '../runner/command-run.js';
import type { Journal } from '../state/journal.js';
import { scheduleLazily } from '../runner/schedule.js';
import type { EnvelopeProgress, JournalProgress } from '../state/journal-progress.js';
import type { EnvelopeStatusFacts } from '../state/journal-record.js';
import { collectCompleted, contentDocuments } from './collect.js';
import { defaultMinListingIntervalMs, listingPermission, nextFromDate } from './polling-rule.js';
import { serviceListingIntervalMs } from './service-polling-rule.js';
import { listStatusChanges } from './status-listing.js';
import { voidDeclared } from './void-declared.js';
import { latestConnectStatuses } from './connect-events.js';
import { connectFormDataIds, readConnectFormData, removeConnectFormData } from './connect-form-data.js';
import { sameFacts, statusFactsOf } from '../state/status-facts.js';
import { recipientOutcomes } from './record-facts.js';
import { withFacts } from '../state/status-facts.js';
import { isSignrunError } from '../errors/signrun-error.js';
import { isStatusRegression } from '../envelope/statuses.js';
import type { EnvelopeDocument, EnvelopeRecipients } from '../envelope/wire.js';

/**
 * Options of {@link sync}: those every command on the service takes
 * (command-run.ts: jobs, target, output folder, concurrency, signal, events,
 * clock…), a state folder it cannot do without, and its own.
 */
export interface SyncOptions extends CommandRunOptions {
  /** State folder (journal): where statuses, listings and collections are recorded. */
  stateDir: string;
  /** List even when the last listing is more recent than the polling rule allows (`--force`). */
  force?: boolean;
  /**
   * Minimum time between two listings of one account, ms. Default DocuSign's
   * 15 minutes, or none against signrun's sandbox unless it keeps DocuSign's
   * rule (service-polling-rule.ts).
   */
  minListingIntervalMs?: number;
  /** Also download each completed envelope's combined PDF. */
  combined?: boolean;
  /**
   * Void what the job files declare voided, and (with `replaceDrifted`)
   * replace drifted envelopes, before listing: `run` asks for it, `sync`
   * alone never changes anything on the service.
   */
  act?: { replaceDrifted: boolean };
  /**
   * Results only for the envelopes sent before (a journal or envelope.json
   * names their envelope): the others cost no call and change nothing, and
   * `run`'s own sync, whose summary no report shows, leaves them out. At
   * 100,000 new rows their results (each row expanded again, a line each in
   * the spool, 40 MB of buffers at once) were the run's peak.
   */
  sentOnly?: boolean;
}

/** What a sync did besides the per-envelope results. */
export interface SyncInfo {
  /** True when a listing was made; false when the polling rule said wait (the results are the recorded ones), or nothing was sent. */
  listed: boolean;
  /** Envelopes of the jobs that were sent (the journal or envelope.json knows their id): what a listing asks about. */
  sent: number;
  /** When the polling rule allows the next listing. */
  nextListingAt?: string;
  listingCalls: number;
  /** Files this sync collected: documents and certificates downloaded, and form-data.json written (a re-sync collects none). */
  downloads: number;
  /**
   * Completed envelopes whose form-data.json came from what `signrun listen`
   * kept of a Connect message with their recipients' tabs
   * (connect-form-data.ts): one read of the recipients saved for each.
   */
  formDataFromConnect: number;
  /**
   * Completed envelopes whose form-data.json came from the status listing's
   * recipients with their tabs (`include=recipients,tabs`): no call each.
   */
  formDataFromListing: number;
  /** Completed envelopes whose form data cost one read of their recipients (listRecipients). */
  formDataReads: number;
  /**
   * Whether the status listing carried the recipients' tabs (undefined: no
   * listing was made). False: this service leaves them out, so each completed
   * envelope's form data costs a read (reported as a warning).
   */
  listingCarriedTabs?: boolean;
  /** The form-data.csv files written, with the number of envelopes in each (form-data-csv.ts). */
  formData: Array<{ path: string; envelopes: number }>;
}

/** A sync's summary: the same one a run gives (so the same reports are written), and what the sync did. */
export interface SyncSummary extends RunSummary {
  sync: SyncInfo;
}

/** One envelope of the jobs and what is known of it before the listing. */
interface Known {
  envelope: ResolvedEnvelope;
  index: number;
  id: string;
  folder: string;
  record: EnvelopeRecord | undefined;
  progress: EnvelopeProgress | undefined;
  envelopeId: string | undefined;
}

/**
 * `signrun sync`: asks the service what became of every envelope of the
 * jobs that was sent — one account-level status-changes listing per
 * account, paged, never a request per envelope — records each status change
 * in the journal and in envelope.json, and collects each newly completed
 * envelope's signed documents and certificate, once, in one download (its
 * archive), with its form data (from the listing's recipients and their
 * tabs; from Connect when `signrun listen` kept them; else one read of the
 * recipients each, which the report counts). An envelope whose state
 * did not change costs no call. The summary feeds the
 * same reporters as a run.
 */
export async function sync(options: SyncOptions): Promise<SyncSummary> {
  const envelopes = options.jobs.flatMap((j) => j.envelopes);
  return commandRun(
    options,
    { report: 'sync', command: 'signrun sync', envelopes: envelopes.length, accounts: 0 },
    async ({ now, concurrency, out, client, collector, state, emit, interrupted, finish }) => {
      const info: SyncInfo = {
        listed: false,
        sent: 0,
        listingCalls: 0,
        downloads: 0,
        formDataFromConnect: 0,
        formDataFromListing: 0,
        formDataReads: 0,
        formData: [],
      };
      const { journal, progress } = state;
      const recollect = new Set(state.brokenPromises.filter((b) => b.step === 'collected').map((b) => b.id));
      const known = await knownEnvelopes(envelopes, out, progress);
      const sent = known.filter((k) => k.envelopeId !== undefined);
      info.sent = sent.length;
      // Recomputed after voids: a replaced envelope is no longer this key's.
      const sentNow = () => known.filter((k) => k.envelopeId !== undefined);
      const account = sent.length > 0 ? await client.login({ tag: 'login' }) : undefined;
      const listed = new Map<string, EnvelopeStatusFacts>();
      const listedDocuments = new Map<string, EnvelopeDocument[]>();
      // The recipients with their tabs of each completed envelope, when the listing carries tabs: its form data.
      const listedRecipients = new Map<string, EnvelopeRecipients>();
      // Events `signrun listen` recorded (Connect): used for what no listing of this sync shows.
      const events = await latestConnectStatuses(options.stateDir);
      // Form data `signrun listen` kept of completed envelopes (Connect with tabs): used instead of a read.
      const connectFormData = await connectFormDataIds(options.stateDir);
      if (account && options.act) {
        const voids = await voidDeclared(known, account, journal, out, {
          replaceDrifted: options.act.replaceDrifted,
          now,
        });
        for (const warning of voids.warnings) emit({ type: 'warning', ...warning });
        for (const v of voids.voided) {
          const k = known.find((x) => x.id === v.id);
          // A replaced envelope's key starts afresh: this sync no longer speaks of the old one.
          if (k && v.replaced) k.envelopeId = undefined;
        }
      }
      if (account) {
        const ours = sentNow().filter((k) => !k.record || k.record.accountId === account.accountId);
        const last = progress.listings.get(account.accountId);
        // Asked only when a listing was made before: the rule cannot forbid the first one.
        const minIntervalMs =
          options.minListingIntervalMs ??
          (last ? await serviceListingIntervalMs(options.target) : defaultMinListingIntervalMs);
        const permission = listingPermission(last?.listedAt, now(), minIntervalMs, options.force === true);
        if (permission.nextAllowedAt) info.nextListingAt = permission.nextAllowedAt;
        if (!permission.allowed) {
          emit({
            type: 'warning',
            kind: 'listing-too-recent',
            message: `the last status listing of account ${account.accountId} was at ${last?.listedAt}: DocuSign allows one every 15 minutes, so this sync shows what was recorded then (next listing from ${permission.nextAllowedAt}; \`npx signrun sync --force\` lists now)`,
          });
        } else if (ours.length > 0) {
          const oldest = ours
            .map((k) => k.record?.createdAt ?? k.progress?.created?.at)
            .filter((t): t is string => t !== undefined)
            .sort()[0];
          const fromDate = nextFromDate(last?.listedAt, oldest, now());
          // Envelopes never seen by a listing whose last change may be older than from_date: asked by id, in batches.
          const unseen = ours
            .filter((k) => !k.progress?.status || k.progress.status.envelopeId !== k.envelopeId)
            .filter((k) => (k.record?.createdAt ?? k.progress?.created?.at ?? '') < fromDate)
            .map((k) => k.envelopeId!);
          const askedAt = now().toISOString();
          // Bounded and cancellable (client/listing-pages.ts): a service that does not stop is
          // refused (SR_LISTING_UNBOUNDED), SIGTERM stops it between pages; either way nothing
          // of it is recorded, and the next sync lists from the same point.
          const result = await listStatusChanges(
            account,
            { fromDate, envelopeIds: unseen },
            { tag: 'sync', ...(options.signal ? { signal: options.signal } : {}) },
          ).catch((error: unknown) => {
            if (isSignrunError(error) && error.code === 'SR_INTERRUPTED' && interrupted()) return undefined;
            throw error;
          });
          if (result) {
            info.listed = true;
            info.listingCalls = result.calls;
            info.listingCarriedTabs = result.carriesTabs;
            for (const [id, envelope] of result.envelopes) {
              listed.set(id, statusFactsOf(envelope));
              // Kept for the completed ones only: what names the files of their archives (collect.ts).
              const documents = envelope.envelopeDocuments ?? [];
              if (envelope.status === 'completed' && contentDocuments(documents).length > 0)
                listedDocuments.set(id, documents);
              if (envelope.status === 'completed' && result.carriesTabs && envelope.recipients)
                listedRecipients.set(id, envelope.recipients);
            }
            await journal.append({
              kind: 'listing',
              id: account.accountId,
              step: 'listed',
              listedAt: result.listedAt ?? askedAt,
              fromDate,
              calls: result.calls,
            });
          } else emit({ type: 'interrupt' });
        }
      }
      // Envelopes are recorded (and completed ones collected) `concurrency` at a time: the downloads overlap.
      const syncEach = async (k: Known): Promise<void> => {
        const result = await syncOne(k, {
          account,
          out,
          journal,
          listed,
          listedDocuments,
          listedRecipients,
          events,
          connectFormData,
          stateDir: options.stateDir,
          now,
          info,
          combined: options.combined === true,
          usageOf: (tag) => collector.usageOf(tag),
          warn: (warning) => emit({ type: 'warning', ...warning }),
          recollect,
          ...(options.signal ? { signal: options.signal } : {}),
        });
        collector.envelopeDone(k.index, result);
        emit({ type: 'envelope:done', result });
      };
      // An abort stops the downloads (collectCompleted takes the signal), not
      // the recording: what the listing said is still written for every envelope.
      await scheduleLazily(options.sentOnly ? sentNow() : known, concurrency, syncEach, () => false);
      if (info.formDataReads > 0 && info.listingCarriedTabs === false)
        emit({
          type: 'warning',
          kind: 'form-data-read-per-envelope',
          message: `the service's status listing left out the recipients' tabs (include=recipients,tabs), so the form data of ${info.formDataReads} completed envelope(s) was read with one call each`,
        });
      info.formData = await writeFormDataTables(known, out, (warning) => emit({ type: 'warning', ...warning }));
      const summary = await finish();
      const formData: FormDataSources = {
        fromListing: info.formDataFromListing,
        fromConnect: info.formDataFromConnect,
        readPerEnvelope: info.formDataReads,
        ...(info.listingCarriedTabs !== undefined ? { listingCarriedTabs: info.listingCarriedTabs } : {}),
      };
      return { ...summary, formData, sync: info };
    },
  );
}

/** What the journal and envelope.json say of each envelope, before any call. */
async function knownEnvelopes(
  envelopes: ResolvedEnvelope[],
  out: OutputFolder,
  progress: JournalProgress,
): Promise<Known[]> {
  const known: Known[] = [];
  // One listing per folder of envelope folders (the job's): an envelope whose folder is not there has no record to read.
  const jobFolders = new Map<string, ReadonlySet<string> | undefined>();
  for (const [index, envelope] of envelopes.entries()) {
    const id = identityOf(envelope);
    const folder = itemFolder(envelope.job, envelope.key);
    const parent = path.posix.dirname(folder);
    if (!jobFolders.has(parent)) jobFolders.set(parent, await folderEntries(out.root, parent));
    const present = jobFolders.get(parent);
    const record =
      present === undefined || present.has(path.posix.basename(folder))
        ? await readRecord<EnvelopeRecord>(out.root, itemFile(folder, 'envelope'))
        : undefined;
    const p = progress.envelopes.get(id);
    const envelopeId = p?.created?.envelopeId ?? record?.envelopeId;
    known.push({ envelope, index, id, folder, record, progress: p, envelopeId: envelopeId?.toLowerCase() });
  }
  return known;
}

interface SyncOneContext {
  account: AccountClient | undefined;
  out: OutputFolder;
  journal: Journal;
  listed: Map<string, EnvelopeStatusFacts>;
  /** The documents the listing gave of each completed envelope (include=documents). */
  listedDocuments: Map<string, EnvelopeDocument[]>;
  /** The recipients with their tabs the listing gave of each completed envelope (include=recipients,tabs). */
  listedRecipients: Map<string, EnvelopeRecipients>;
  /** Latest status per envelopeId from Connect events (signrun listen). */
  events: Map<string, { status: string; at: string }>;
  /** Envelope ids whose form data listen kept (connect-form-data.ts). */
  connectFormData: ReadonlySet<string>;
  stateDir: string;
  now: () => Date;
  info: SyncInfo;
  combined: boolean;
  usageOf: (tag: string) => { calls: number; retries: number };
  signal?: AbortSignal;
  /** Identities whose collected files the journal records and the output folder lacks. */
  recollect: ReadonlySet<string>;
  /** A warning for the summary (a status the service took back). */
  warn: (warning: { kind: 'status-regression'; message: string }) => void;
}

/** Records what the listing said of one envelope, collects it when newly completed, rewrites its envelope.json. */
async function syncOne(k: Known, ctx: SyncOneContext): Promise<EnvelopeResult> {
  const base: EnvelopeResult = {
    job: k.envelope.job,
    key: k.envelope.key,
    source: k.envelope.source,
    outcome: 'not-started',
    recipients: [],
    files: [],
    apiCalls: 0,
    retries: 0,
  };
  if (k.envelope.row !== undefined) base.row = k.envelope.row;
  // Where the reports point at a forEach row (its CSV line), as a run's results do.
  if (k.envelope.rowSource !== undefined) base.rowSource = k.envelope.rowSource;
  if (!k.envelopeId || !ctx.account) return base;
  const envelopeId = k.envelopeId;
  const recorded = k.progress?.status?.envelopeId === envelopeId ? k.progress.status.facts : undefined;
  const event = ctx.events.get(envelopeId);
  const fromEvent =
    event && !ctx.listed.has(envelopeId) && event.status !== recorded?.status && event.at > (recorded?.statusAt ?? '')
      ? { ...(recorded ?? { recipients: [] }), status: event.status, statusAt: event.at }
      : undefined;
  let fresh = ctx.listed.get(envelopeId) ?? fromEvent;
  // A status never goes backwards in the state (issue 25): a listing that says `sent` after
  // `completed` was recorded is reported, and the recorded status stays.
  if (fresh && recorded && isStatusRegression(recorded.status, fresh.status)) {
    ctx.warn({
      kind: 'status-regression',
      message: `${k.id}: the service says envelope ${envelopeId} is ${fresh.status}, but ${recorded.status} was recorded${recorded.statusAt ? ` (${recorded.statusAt})` : ''}; a status does not go back, so ${recorded.status} is kept`,
    });
    fresh = undefined;
  }
  const facts = fresh ?? recorded;
  let record = k.record ?? minimalRecord(k, envelopeId, ctx.account, ctx.now);
  let changed = false;
  let error: EnvelopeResult['error'];
  if (fresh && !sameFacts(recorded, fresh)) {
    await ctx.journal.append({ kind: 'envelope', id: k.id, step: 'status', envelopeId, facts: fresh });
    changed = true;
  }
  // Collected files the journal records but the output folder lacks are collected again (issue 25).
  const alreadyCollected =
    !ctx.recollect.has(k.id) &&
    (k.progress?.collected?.envelopeId === envelopeId || k.record?.collected === true) &&
    k.record?.collected !== false;
  let files: FileRecord[] | undefined;
  if (facts?.status === 'completed' && !alreadyCollected) {
    try {
      const documents = ctx.listedDocuments.get(envelopeId);
      const formData = ctx.connectFormData.has(envelopeId)
        ? await readConnectFormData(ctx.stateDir, envelopeId)
        : undefined;
      const recipients = formData ? undefined : ctx.listedRecipients.get(envelopeId);
      // Let go as each envelope is collected: a listing of many completed envelopes is not held to the end.
      ctx.listedRecipients.delete(envelopeId);
      ctx.listedDocuments.delete(envelopeId);
      files = await collectCompleted(ctx.account, ctx.out, k.folder, envelopeId, {
        combined: ctx.combined,
        ...(documents ? { documents } : {}),
        ...(formData ? { formData } : {}),
        ...(recipients ? { recipients } : {}),
        now: ctx.now,
        tag: k.id,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
      });
      ctx.info.downloads += files.length;
      await ctx.journal.append({
        kind: 'envelope',
        id: k.id,
        step: 'collected',
        envelopeId,
        files: files.map((f) => ({ path: f.path, sha256: f.sha256, size: f.size })),
      });
      changed = true;
      if (recipients) ctx.info.formDataFromListing += 1;
      else if (!formData) ctx.info.formDataReads += 1;
      if (formData) {
        ctx.info.formDataFromConnect += 1;
        // Collected: form-data.json holds the values now, the state need not keep a second copy.
        await removeConnectFormData(ctx.stateDir, envelopeId).catch(() => undefined);
      }
    } catch (caught) {
      error = itemErrorOf(caught, 'collect');
    }
  }
  // Kept by listen for an envelope collected before (a crash between collecting and removing it): not needed.
  if (alreadyCollected && ctx.connectFormData.has(envelopeId))
    await removeConnectFormData(ctx.stateDir, envelopeId).catch(() => undefined);
  if (facts) record = withFacts(record, facts);
  if (files) {
    const replaced = new Set(files.map((f) => f.path));
    record = {
      ...record,
      files: [...record.files.filter((f) => !replaced.has(f.path)), ...files].sort((a, b) =>
        a.path.localeCompare(b.path),
      ),
      collected: true,
    };
  }
  const written: FileRecord[] = [];
  if (changed || !k.record || !sameRecord(k.record, record)) {
    record = { ...record, updatedAt: ctx.now().toISOString(), syncedAt: ctx.now().toISOString() };
    try {
      written.push(await ctx.out.writeJson(itemFile(k.folder, 'envelope'), record));
    } catch (caught) {
      error ??= itemErrorOf(caught, 'outputs');
    }
  }
  const signing = await readRecord<SigningRecord>(ctx.out.root, itemFile(k.folder, 'signing')).catch(() => undefined);
  const usage = ctx.usageOf(k.id);
  const result: EnvelopeResult = {
    ...base,
    outcome: error ? 'failed' : 'succeeded',
    adopted: true,
    envelopeId,
    recipients: recipientOutcomes(record, signing),
    files: [...record.files, ...written.filter((w) => !record.files.some((f) => f.path === w.path))].sort((a, b) =>
      a.path.localeCompare(b.path),
    ),
    apiCalls: usage.calls,
    retries: usage.retries,
  };
  if (record.status !== undefined) result.status = record.status;
  copyFacts(result, record, shownFactFields);
  if (error) result.error = error;
  return result;
}

/**
 * `<job>/form-data.csv` for each job of the sync that has completed
 * envelopes with form data — those collected now and those collected by an
 * earlier sync (read back from their form-data.json), so the table is
 * always the whole job. A table that cannot be written is a warning: the
 * envelopes' own files are written already.
 */
async function writeFormDataTables(
  known: readonly Known[],
  out: OutputFolder,
  warn: (warning: { kind: 'output-not-written'; message: string }) => void,
): Promise<SyncInfo['formData']> {
  const byJob = new Map<string, FormDataRow[]>();
  for (const k of known) {
    // Form data is that of an envelope sent: nothing to read of a key that has none.
    if (k.envelopeId === undefined) continue;
    const formData = await readRecord<FormDataJson>(out.root, itemFile(k.folder, 'formData')).catch(() => undefined);
    if (formData === undefined || formData.envelopeId !== k.envelopeId) continue;
    const rows = byJob.get(k.envelope.job) ?? [];
    // Form data is read of completed envelopes only, and completed is final.
    rows.push({ key: k.envelope.key, status: formData.status, formData });
    byJob.set(k.envelope.job, rows);
  }
  const written: SyncInfo['formData'] = [];
  for (const [job, rows] of byJob) {
    const path = jobFormDataFile(job);
    try {
      await out.writeFile(path, formDataCsv(rows));
      written.push({ path, envelopes: rows.length });
    } catch (caught) {
      warn({ kind: 'output-not-written', message: `${path} was not written: ${(caught as Error).message}` });
    }
  }
  return written;
}

/** True when two envelope.json records say the same, times of writing aside. */
function sameRecord(a: EnvelopeRecord, b: EnvelopeRecord): boolean {
  const strip = ({ updatedAt: _u, syncedAt: _s, ...rest }: EnvelopeRecord) => rest;
  return JSON.stringify(strip(a)) === JSON.stringify(strip(b));
}

/** envelope.json for an envelope the journal knows but whose record a crash left unwritten. */
function minimalRecord(k: Known, envelopeId: string, account: AccountClient, now: () => Date): EnvelopeRecord {
  const at = k.progress?.created?.at ?? now().toISOString();
  return {
    job: k.envelope.job,
    key: k.envelope.key,
    envelopeId,
    digest: k.progress?.created?.digest ?? k.envelope.digest,
    transactionId: transactionIdOf(k.envelope),
    rootUrl: account.client.rootUrl,
    accountId: account.accountId,
    createdAt: at,
    updatedAt: at,
    recipients: [],
    files: [],
  };
}
