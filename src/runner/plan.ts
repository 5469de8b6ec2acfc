import type { ResolvedAccount, ResolvedEnvelope, ResolvedJob } from '../jobs/model.js';
import {
  itemFolder,
  readRecord,
  type AccountRecord,
  type EnvelopeRecord,
  type SigningRecord,
} from '../output/records.js';
import { expectedApiCalls } from './envelope-definition.js';
import { identityOf } from './identity.js';
import type { FoundEnvelope } from '../state/create-once.js';
import type { JournalProgress } from '../state/journal-progress.js';

/** What a run would do with one envelope or account. */
export interface PlanItem {
  kind: 'envelope' | 'account';
  job: string;
  key: string;
  /**
   * `create`: not sent yet (or account missing); `adopt`: not in the journal
   * nor the outputs, but the service holds an envelope with its identity and
   * the same digest (a run adopts it instead of sending it again);
   * `up-to-date`: an earlier run
   * sent it with the same content (a run only asks again for expired signing
   * addresses and missing or damaged files); `drift`: sent, and the content changed since
   * (a run refuses it); `delete`: an account to remove; `nothing`: an
   * absent account with no known ids.
   */
  action: 'create' | 'adopt' | 'up-to-date' | 'drift' | 'delete' | 'nothing';
  /** Where the plan learnt that it exists: the journal, the outputs of an earlier run, or the service's listing. */
  foundIn?: 'journal' | 'outputs' | 'service';
  /** API calls a run would make for it. */
  apiCalls: number;
  envelopeId?: string;
  accountId?: string;
}

/** The plan of a run. */
export interface RunPlan {
  items: PlanItem[];
  /** Calls made once per run: login and one read per template. */
  runCalls: number;
  totalApiCalls: number;
}

/** What the plan may read besides the job files and the outputs (issue 6: "against the target"). */
export interface PlanSources {
  /**
   * The journal of the state folder (`readJournal` + `journalProgress`; read,
   * never locked or repaired). Present also means a run keeps one, and so
   * looks up each envelope new to it before creating (one call more).
   */
  journal?: JournalProgress;
  /**
   * Asks the service for the envelope carrying an identity (the runner's own
   * lookup, `findByIdentity`: a GET). Called only for envelopes neither the
   * journal nor the outputs know. Absent: offline (an in-process sandbox
   * starts empty, so everything not in the outputs is `create`).
   */
  lookup?: (identity: string) => Promise<FoundEnvelope | undefined>;
  /** Asks the service whether an account exists (`accountExists`, a GET). Absent: an account with a known id is taken as present. */
  accountExists?: (accountId: string, identity: string) => Promise<boolean>;
}

/**
 * What `run` would do, from the job files, the journal and outputs of
 * earlier runs, and — with `sources.lookup` — the service's own listing.
 * Read-only: it changes nothing on disk or on the service. The lookups it
 * makes are not counted in `totalApiCalls` (those are the run's).
 */
export async function planRun(
  jobs: ResolvedJob[],
  outDir: string,
  rootUrl?: string,
  sources: PlanSources = {},
): Promise<RunPlan> {
  const items: PlanItem[] = [];
  const templates = new Set<string>();
  for (const job of jobs) {
    for (const account of job.accounts) items.push(await planAccount(account, outDir, rootUrl, sources));
    for (const envelope of job.envelopes) {
      if (envelope.kind === 'template' && envelope.templateId) templates.add(envelope.templateId);
      items.push(await planEnvelope(envelope, outDir, rootUrl, sources));
    }
  }
  const runCalls = 1 + templates.size;
  return { items, runCalls, totalApiCalls: runCalls + items.reduce((n, i) => n + i.apiCalls, 0) };
}

async function planEnvelope(
  envelope: ResolvedEnvelope,
  outDir: string,
  rootUrl: string | undefined,
  sources: PlanSources,
): Promise<PlanItem> {
  const base = { kind: 'envelope' as const, job: envelope.job, key: envelope.key };
  const id = identityOf(envelope);
  const calls = expectedApiCalls(envelope);
  const journalled = sources.journal?.envelopes.get(id);
  const earlier = await readRecord<EnvelopeRecord>(outDir, `${itemFolder(envelope.job, envelope.key)}/envelope.json`);
  const fromOutputs =
    earlier?.envelopeId && (rootUrl === undefined || earlier.rootUrl === rootUrl) ? earlier : undefined;
  if (journalled?.created && !fromOutputs) {
    // Created, but its outputs are gone: a run adopts it and does every later step again.
    const { envelopeId, digest } = journalled.created;
    if (digest !== envelope.digest) return { ...base, action: 'drift', apiCalls: 0, envelopeId, foundIn: 'journal' };
    return { ...base, action: 'up-to-date', apiCalls: calls - 1, envelopeId, foundIn: 'journal' };
  }
  if (!fromOutputs) {
    // Unknown here (or an intent never answered): the run looks it up first, so does the plan.
    const lookupCost = sources.journal ? 1 : 0;
    const found = sources.lookup ? await sources.lookup(id) : undefined;
    if (!found) return { ...base, action: 'create', apiCalls: calls + lookupCost };
    if (found.digest !== undefined && found.digest !== envelope.digest)
      return { ...base, action: 'drift', apiCalls: lookupCost, envelopeId: found.envelopeId, foundIn: 'service' };
    return {
      ...base,
      action: 'adopt',
      apiCalls: lookupCost + calls - 1,
      envelopeId: found.envelopeId,
      foundIn: 'service',
    };
  }
  if (fromOutputs.digest !== envelope.digest)
    return { ...base, action: 'drift', apiCalls: 0, envelopeId: fromOutputs.envelopeId, foundIn: 'outputs' };
  // A run reuses intact files and valid addresses: it asks only for the addresses that expired (or whose turn may have come).
  const signing = await readRecord<SigningRecord>(outDir, `${itemFolder(envelope.job, envelope.key)}/signing.json`);
  const soon = Date.now() + 60_000;
  const views = (signing?.recipients ?? []).filter(
    (r) => r.state !== 'ready' || !r.expiresAt || Date.parse(r.expiresAt) <= soon,
  ).length;
  return { ...base, action: 'up-to-date', apiCalls: views, envelopeId: fromOutputs.envelopeId, foundIn: 'outputs' };
}

async function planAccount(
  account: ResolvedAccount,
  outDir: string,
  rootUrl: string | undefined,
  sources: PlanSources,
): Promise<PlanItem> {
  const base = { kind: 'account' as const, job: account.job, key: account.key };
  const earlier = await readRecord<AccountRecord>(outDir, `${itemFolder(account.job, account.key)}/account.json`);
  const known =
    earlier && earlier.state !== 'deleted' && (rootUrl === undefined || earlier.rootUrl === rootUrl)
      ? earlier
      : undefined;
  const accountId = account.accountId ?? known?.accountId;
  if (account.state === 'present') {
    // read it (1), and create it when missing (1 more)
    if (!accountId) return { ...base, action: 'create', apiCalls: 1 };
    // A run reads it first and creates it again when the service no longer has it.
    if (sources.accountExists && !(await sources.accountExists(accountId, identityOf(account))))
      return { ...base, action: 'create', apiCalls: 2, accountId, foundIn: 'service' };
    return {
      ...base,
      action: 'up-to-date',
      apiCalls: 1,
      accountId,
      ...(sources.accountExists ? { foundIn: 'service' as const } : {}),
    };
  }
  // log in as its user (1) and delete (1)
  return accountId
    ? { ...base, action: 'delete', apiCalls: 2, accountId }
    : { ...base, action: 'nothing', apiCalls: 0 };
}

/** `<job>/<key>` of a plan item. */
export function planItemName(item: PlanItem): string {
  return identityOf(item);
}
