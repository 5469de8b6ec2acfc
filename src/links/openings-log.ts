import { appendFile, rename, stat } from 'node:fs/promises';
import type { OutputFolder } from '../output/output-folder.js';
import { itemFile } from '../output/output-paths.js';

/** How an opening of a link ended. */
export type OpeningOutcome = 'redirected' | 'reused' | 'throttled' | 'settled' | 'not-yet' | 'unavailable';

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

/** A log past this size is rotated to `<name>.1` (the one before is dropped): at most twice this per envelope. */
export const openingsLogBytes = 256 * 1024;

/**
 * Records an opening, appended (O_APPEND: concurrent openings never
 * overwrite one another; a line is one write): the trace of who opened what
 * and when. Bounded: a link opened in a loop cannot fill the disk — past
 * {@link openingsLogBytes} the log is moved to `link-openings.jsonl.1` and
 * a new one begins.
 */
export async function recordOpening(
  out: OutputFolder,
  folder: string,
  opening: Opening,
  maxBytes = openingsLogBytes,
): Promise<void> {
  const file = out.resolve(itemFile(folder, 'linkOpenings'));
  const size = await stat(file).then(
    (s) => s.size,
    () => 0,
  );
  if (size >= maxBytes) await rename(file, `${file}.1`).catch(() => undefined);
  await appendFile(file, `${JSON.stringify(opening)}\n`, { mode: 0o644 });
}
