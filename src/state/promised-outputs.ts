import { lstat } from 'node:fs/promises';
import path from 'node:path';
import { itemFile } from '../output/output-paths.js';
import { readRecord, type SigningJson } from '../output/records.js';
import type { EnvelopeProgress, JournalProgress } from './journal-progress.js';
import { isSettledEnvelope } from '../envelope/statuses.js';

/** Envelopes whose outputs are checked at once. */
const checkedAtOnce = 64;

/** One output the journal promises that the output folder lacks (or holds with other bytes). */
export interface BrokenPromise {
  /** The envelope's identity, `<job>/<key>`. */
  id: string;
  /** Relative to the output folder. */
  path: string;
  /** `view`: signing.json lacks the address; `document`, `certificate`, `collected`: the file is missing or its size differs. */
  step: 'view' | 'document' | 'certificate' | 'collected';
}

/**
 * The journal's progress with every promise the output folder does not keep
 * taken back, so that the plan redoes those steps (issue 25): a `view` whose
 * address signing.json does not hold (a missing or unreadable signing.json,
 * one of another envelope, or without an address for that recipient) is
 * forgotten, and the views are made again and signing.json rewritten; a
 * `document` or `certificate` whose file is missing or of another size is
 * downloaded again; a sync's `collected` files likewise collected again.
 *
 * Files are written whole (temp + rename) and journalled only after, so what
 * a crash leaves is a step journalled with its file absent only when the
 * file was removed since, or an earlier run's order (views journalled before
 * signing.json) left it so: either way the output is made again. A size is
 * compared, not a sha256: re-reading every download of a campaign on every
 * run would cost more than the crash it guards against, and a file of the
 * right size and other bytes is an edit, not a crash. Pure reading; the
 * journal itself is not changed (a repair appends new records as it is done).
 */
export async function keptPromises(
  progress: JournalProgress,
  outDir: string,
): Promise<{ progress: JournalProgress; broken: BrokenPromise[] }> {
  const all = [...progress.envelopes.values()];
  const results: Array<{ kept: EnvelopeProgress; broken: BrokenPromise[] }> = [];
  // 64 envelopes at a time: 10,000 envelopes (signing.json read, a document stat-ed each) take about 2 s
  // on the shared 2-core machine, 3.5 s one after another (measured 2026-11-26).
  for (let i = 0; i < all.length; i += checkedAtOnce) {
    const batch = all.slice(i, i + checkedAtOnce).map(async (p) => {
      const broken: BrokenPromise[] = [];
      return { kept: await keptOf(p, outDir, broken), broken };
    });
    results.push(...(await Promise.all(batch)));
  }
  const envelopes = new Map(results.map((r) => [r.kept.id, r.kept]));
  return { progress: { ...progress, envelopes }, broken: results.flatMap((r) => r.broken) };
}

async function keptOf(p: EnvelopeProgress, outDir: string, broken: BrokenPromise[]): Promise<EnvelopeProgress> {
  const envelopeId = p.created?.envelopeId.toLowerCase();
  let next = p;
  const change = (patch: Partial<EnvelopeProgress>) => {
    next = { ...next, ...patch };
  };
  // A settled envelope's addresses are of no use (nobody signs any more): not made again, not checked.
  const settled = isSettledEnvelope(p.status?.facts.status) || p.voided !== undefined;
  if (p.views.size > 0 && !settled) {
    // The envelope's folder is its identity (`<job>/<key>`, output-paths.ts itemFolder).
    const signingPath = itemFile(p.id, 'signing');
    const signing = await readRecord<SigningJson>(outDir, signingPath).catch(() => undefined);
    // An address made at send is in the file; one made on demand is listed, to be made when the person arrives.
    const ready = (signing?.recipients ?? []).filter(
      (r) => (r.state === 'ready' && typeof r.url === 'string') || r.state === 'on-demand',
    );
    const same = envelopeId !== undefined && signing?.envelopeId?.toLowerCase() === envelopeId;
    if (!same || ready.length < p.views.size) {
      broken.push({ id: p.id, path: signingPath, step: 'view' });
      change({ views: new Map() });
    }
  }
  const documents = new Map(p.documents);
  for (const [documentId, d] of p.documents)
    if (!(await sameSize(outDir, d.path, d.size))) {
      broken.push({ id: p.id, path: d.path, step: 'document' });
      documents.delete(documentId);
    }
  if (documents.size !== p.documents.size) change({ documents });
  if (p.certificate && !(await sameSize(outDir, p.certificate.path, p.certificate.size))) {
    broken.push({ id: p.id, path: p.certificate.path, step: 'certificate' });
    const { certificate: _dropped, ...rest } = next;
    next = rest;
  }
  if (p.collected) {
    for (const f of p.collected.files)
      if (!(await sameSize(outDir, f.path, f.size))) {
        broken.push({ id: p.id, path: f.path, step: 'collected' });
        const { collected: _dropped, ...rest } = next;
        next = rest;
        break;
      }
  }
  return next;
}

/** The file exists (not a link) with this size. */
async function sameSize(outDir: string, relative: string, size: number): Promise<boolean> {
  try {
    const stat = await lstat(path.join(outDir, relative));
    return stat.isFile() && stat.size === size;
  } catch {
    return false;
  }
}
