import { readFile } from 'node:fs/promises';
import type { OutputFolder } from './output-folder.js';
import { itemFile, replacedRecordFile } from './output-paths.js';
import type { EnvelopeRecord } from './records.js';

/** What became of an earlier envelope's outputs in a key's folder. */
export interface EarlierEnvelope {
  envelopeId: string;
  /** `set-aside`: moved under replaced/; `removed`: it died with the in-process sandbox that made it. */
  fate: 'set-aside' | 'removed';
}

/**
 * A key's folder describes one envelope. When a run makes (or first finds
 * on the service) an envelope for a key whose folder still holds another
 * one's outputs — a run against another target, or a drifted envelope
 * replaced — those outputs
 * would otherwise stay beside a new envelope.json that does not list them
 * (issue 26). The earlier envelope's files go under
 * `replaced/<envelopeId>/` and its envelope.json to `replaced/<envelopeId>.json`,
 * the record last, so that a crash midway leaves it to be finished by the
 * next run. An envelope made by a sandbox the run started in-process no
 * longer exists anywhere: its files are removed instead, or every
 * `npx signrun run examples` would pile up copies of the examples.
 */
export async function retireEarlierEnvelope(
  out: OutputFolder,
  folder: string,
  /** The envelope the key now has, when known (adopted): its own outputs stay. */
  current?: string,
): Promise<EarlierEnvelope | undefined> {
  // A key whose folder was not there when the run began has no earlier
  // outputs (one made since is this run's, or a racing runner's of the same
  // envelope: not earlier either). One listing of the job's folder, not a
  // failed open per envelope.
  const slash = folder.lastIndexOf('/');
  const listed = slash > 0 ? await out.firstListing(folder.slice(0, slash)) : undefined;
  if (listed && !listed.has(folder.slice(slash + 1))) return undefined;
  const recordPath = itemFile(folder, 'envelope');
  let record: EnvelopeRecord;
  try {
    record = JSON.parse(await readFile(out.resolve(recordPath), 'utf8')) as EnvelopeRecord;
  } catch {
    // No record (the usual case), or one cut short: nothing known to retire.
    return undefined;
  }
  if (typeof record.envelopeId !== 'string' || !/^[\w-]+$/.test(record.envelopeId)) return undefined;
  const envelopeId = record.envelopeId;
  if (current !== undefined && envelopeId.toLowerCase() === current.toLowerCase()) return undefined;
  const inFolder = (p: string) => p.startsWith(`${folder}/`) && !p.startsWith(`${folder}/replaced/`);
  const files = new Set([
    ...(Array.isArray(record.files) ? record.files.map((f) => f.path).filter(inFolder) : []),
    itemFile(folder, 'signing'),
    itemFile(folder, 'formData'),
    itemFile(folder, 'combined'),
  ]);
  const fate = record.inProcessSandbox === true ? 'removed' : 'set-aside';
  for (const file of files) {
    if (fate === 'removed') await out.remove(file);
    else await out.move(file, `${folder}/replaced/${envelopeId}/${file.slice(folder.length + 1)}`);
  }
  if (fate === 'removed') await out.remove(recordPath);
  else await out.move(recordPath, replacedRecordFile(folder, envelopeId));
  return { envelopeId, fate };
}
