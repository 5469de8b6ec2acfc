import { appendFile } from 'node:fs/promises';
import type { OutputFolder } from '../output/output-folder.js';
import { itemFile } from '../output/output-paths.js';

/** How an opening of a link ended. */
export type OpeningOutcome = 'redirected' | 'settled' | 'not-yet' | 'unavailable';

/** One line of `<job>/<key>/link-openings.jsonl`: no signing address, no token, no client address. */
export interface Opening {
  at: string;
  recipientId: string;
  clientUserId: string;
  outcome: OpeningOutcome;
  /** The envelope's status when it was settled. */
  status?: string;
  /** signrun's or the service's error code when no address could be had. */
  code?: string;
}

/**
 * Records an opening, appended (O_APPEND: concurrent openings never
 * overwrite one another; a line is one write). Append-only on purpose: it
 * is the trace of who opened what and when.
 */
export async function recordOpening(out: OutputFolder, folder: string, opening: Opening): Promise<void> {
  await appendFile(out.resolve(itemFile(folder, 'linkOpenings')), `${JSON.stringify(opening)}\n`, { mode: 0o644 });
}
