import type { ResolvedAccount, ResolvedEnvelope, ResolvedJob } from '../jobs/model.js';
import { itemFolder, readRecord, type AccountRecord, type EnvelopeRecord, type SigningRecord } from '../output/records.js';
import { expectedApiCalls } from './envelope-definition.js';
import { identityOf } from './identity.js';

/** What a run would do with one envelope or account. */
export interface PlanItem {
  kind: 'envelope' | 'account';
  job: string;
  key: string;
  /**
   * `create`: not sent yet (or account missing); `up-to-date`: an earlier run
   * sent it with the same content (a run only asks again for expired signing
   * addresses and missing or damaged files); `drift`: sent, and the content changed since
   * (a run refuses it); `delete`: an account to remove; `nothing`: an
   * absent account with no known ids.
   */
  action: 'create' | 'up-to-date' | 'drift' | 'delete' | 'nothing';
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

/**
 * What `run` would do, read from the job files and the output folder of
 * earlier runs (envelope.json, account.json); offline and read-only. Issue 6
 * extends it with the journal and the service's own listing.
 */
export async function planRun(jobs: ResolvedJob[], outDir: string, rootUrl?: string): Promise<RunPlan> {
  const items: PlanItem[] = [];
  const templates = new Set<string>();
  for (const job of jobs) {
    for (const account of job.accounts) items.push(await planAccount(account, outDir, rootUrl));
    for (const envelope of job.envelopes) {
      if (envelope.kind === 'template' && envelope.templateId) templates.add(envelope.templateId);
      items.push(await planEnvelope(envelope, outDir, rootUrl));
    }
  }
  const runCalls = 1 + templates.size;
  return { items, runCalls, totalApiCalls: runCalls + items.reduce((n, i) => n + i.apiCalls, 0) };
}

async function planEnvelope(envelope: ResolvedEnvelope, outDir: string, rootUrl: string | undefined): Promise<PlanItem> {
  const base = { kind: 'envelope' as const, job: envelope.job, key: envelope.key };
  const calls = expectedApiCalls(envelope);
  const earlier = await readRecord<EnvelopeRecord>(outDir, `${itemFolder(envelope.job, envelope.key)}/envelope.json`);
  if (!earlier?.envelopeId || (rootUrl !== undefined && earlier.rootUrl !== rootUrl)) return { ...base, action: 'create', apiCalls: calls };
  if (earlier.digest !== envelope.digest) return { ...base, action: 'drift', apiCalls: 0, envelopeId: earlier.envelopeId };
  // A run reuses intact files and valid addresses: it asks only for the addresses that expired (or whose turn may have come).
  const signing = await readRecord<SigningRecord>(outDir, `${itemFolder(envelope.job, envelope.key)}/signing.json`);
  const soon = Date.now() + 60_000;
  const views = (signing?.recipients ?? []).filter((r) => r.state !== 'ready' || !r.expiresAt || Date.parse(r.expiresAt) <= soon).length;
  return { ...base, action: 'up-to-date', apiCalls: views, envelopeId: earlier.envelopeId };
}

async function planAccount(account: ResolvedAccount, outDir: string, rootUrl: string | undefined): Promise<PlanItem> {
  const base = { kind: 'account' as const, job: account.job, key: account.key };
  const earlier = await readRecord<AccountRecord>(outDir, `${itemFolder(account.job, account.key)}/account.json`);
  const known = earlier && earlier.state !== 'deleted' && (rootUrl === undefined || earlier.rootUrl === rootUrl) ? earlier : undefined;
  const accountId = account.accountId ?? known?.accountId;
  if (account.state === 'present') {
    // read it (1), and create it when missing (1 more)
    return accountId ? { ...base, action: 'up-to-date', apiCalls: 1, accountId } : { ...base, action: 'create', apiCalls: 1 };
  }
  // log in as its user (1) and delete (1)
  return accountId ? { ...base, action: 'delete', apiCalls: 2, accountId } : { ...base, action: 'nothing', apiCalls: 0 };
}

/** `<job>/<key>` of a plan item. */
export function planItemName(item: PlanItem): string {
  return identityOf(item);
}
