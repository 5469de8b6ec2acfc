import path from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';
import { writeFileAtomic } from '../output/atomic-write.js';
import { shownUrl } from '../secret.js';
import { readTextIfPresent } from './text-if-present.js';

/** What `<state>/target.json` holds: the service whose envelopes the journal speaks of. */
export interface StateTarget {
  rootUrl: string;
  /** When the first run with this state folder started. */
  since: string;
}

/**
 * Binds a state folder to one service. The journal records envelope ids, and
 * an id of the demo environment means nothing to production: a run pointed at
 * another service with the same state folder would take the journal's
 * envelopes as done and send nothing. So the first run writes the service's
 * root URL, and later runs against another one are refused before any call.
 * Call it while holding the state lock, so two first runs cannot race.
 */
export async function bindStateTarget(stateDir: string, rootUrl: string, now: Date = new Date()): Promise<StateTarget> {
  const recorded = await checkStateTarget(stateDir, rootUrl);
  if (recorded !== undefined) return recorded;
  const target: StateTarget = { rootUrl: normalise(rootUrl), since: now.toISOString() };
  // Private like the rest of the state folder (0700), and never holding a password or a query of the address.
  await writeFileAtomic(path.join(stateDir, 'target.json'), `${JSON.stringify(target, null, 2)}\n`, 0o600);
  return target;
}

/**
 * The read-only half, for `plan`: throws SR_STATE_OTHER_TARGET when the state
 * folder belongs to another service; returns what it records, or undefined
 * when no run has used it yet.
 */
export async function checkStateTarget(stateDir: string, rootUrl: string): Promise<StateTarget | undefined> {
  const recorded = await readTarget(path.join(stateDir, 'target.json'));
  if (recorded !== undefined && normalise(recorded.rootUrl) !== normalise(rootUrl)) {
    throw new SignrunError(
      'SR_STATE_OTHER_TARGET',
      `the state folder ${stateDir} belongs to runs against ${shownUrl(recorded.rootUrl)} (since ${recorded.since}), not ${shownUrl(rootUrl)}`,
      {
        details: { stateDir, recordedRootUrl: shownUrl(recorded.rootUrl), rootUrl: shownUrl(rootUrl) },
        // Named, since the usual cause is a shell that lacks the settings the earlier runs had.
        hint: `To work on this folder's envelopes, point signrun at their service (DOCUSIGN_ROOT_URL=${shownUrl(recorded.rootUrl)}, with its credentials); to run against ${shownUrl(rootUrl)}, give it its own --out (or --state) folder. Nothing was sent.`,
      },
    );
  }
  return recorded;
}

/** The service a state folder belongs to, if a run has used it (`sync` says where its envelopes are). */
export function recordedStateTarget(stateDir: string): Promise<StateTarget | undefined> {
  return readTarget(path.join(stateDir, 'target.json'));
}

async function readTarget(file: string): Promise<StateTarget | undefined> {
  const text = await readTextIfPresent(file);
  if (text === undefined) return undefined;
  let parsed: Partial<StateTarget> | null = null;
  try {
    parsed = JSON.parse(text) as Partial<StateTarget> | null;
  } catch {
    // Left as null: reported below like any other file that is not ours.
  }
  if (typeof parsed?.rootUrl !== 'string' || typeof parsed.since !== 'string') {
    throw new SignrunError('SR_STATE_OTHER_TARGET', `${file} is not a signrun state target file`, {
      hint: 'Remove the file if the state folder is yours, or give this run another --state folder.',
    });
  }
  return { rootUrl: parsed.rootUrl, since: parsed.since };
}

/** `…/restapi/v2/` and `…/restapi/v2` are the same service; so are v2 and its v2.1 alias on one host. */
function normalise(rootUrl: string): string {
  return shownUrl(rootUrl)
    .replace(/\/+$/, '')
    .replace(/\/v2\.1$/, '/v2')
    .toLowerCase();
}
