import { existsSync } from 'node:fs';
import { rmdir } from 'node:fs/promises';
import path from 'node:path';
import { SignrunError } from '../errors/signrun-error.js';
import { stageFile, stageStream, type ContentDigest, type StagedFile } from './atomic-write.js';

/**
 * Files written together or not at all (issue 36: a refused `import template`
 * said "nothing was written" and left `templates/<key>/one.pdf`). Each file
 * is staged whole in a temp file beside its target (sealed at once, so no
 * handle stays open per file); `commit` renames them all into place once
 * every one is whole; `discard` removes the temp files and the folders the
 * staging made, so that a refused or interrupted import leaves the folder as
 * it found it.
 */
export class StagedFiles {
  readonly #files: Array<{ target: string; file: StagedFile }> = [];
  /** Folders made for the staged files, in the order made (parents first). */
  readonly #madeFolders: string[] = [];
  #settled = false;

  /** Stages `data` for `target`. */
  async file(target: string, data: string | Uint8Array, mode?: number): Promise<ContentDigest> {
    return this.#stage(target, () => stageFile(target, data, mode));
  }

  /** Stages `body` for `target`, streamed (a download sink). */
  async stream(target: string, body: AsyncIterable<unknown>, mode?: number): Promise<ContentDigest> {
    return this.#stage(target, () => stageStream(target, body, mode));
  }

  /** How many files are staged. */
  get size(): number {
    return this.#files.length;
  }

  async #stage(target: string, stage: () => Promise<StagedFile>): Promise<ContentDigest> {
    if (this.#settled) throw new Error(`staged files already committed or discarded: ${target}`);
    this.#noteFolders(path.dirname(target));
    const file = await stage();
    this.#files.push({ target, file });
    await file.seal();
    return { size: file.size, sha256: file.sha256 };
  }

  /** Remembers the folders above `folder` that do not exist yet (staging makes them). */
  #noteFolders(folder: string): void {
    const missing: string[] = [];
    for (let dir = folder; !existsSync(dir) && path.dirname(dir) !== dir; dir = path.dirname(dir)) missing.unshift(dir);
    for (const dir of missing) if (!this.#madeFolders.includes(dir)) this.#madeFolders.push(dir);
  }

  /**
   * Renames every staged file into place, in the order staged. A rename
   * refused midway (it should not be: each temp file is beside its target)
   * leaves the files renamed before it in place and removes the rest: the
   * error (SR_OUTPUT_WRITE) names both.
   */
  async commit(): Promise<void> {
    this.#settled = true;
    const written: string[] = [];
    for (const [i, { target, file }] of this.#files.entries()) {
      try {
        await file.commit();
        written.push(target);
      } catch (error) {
        const rest = this.#files.slice(i + 1);
        await Promise.all(rest.map((r) => r.file.discard()));
        const notWritten = [target, ...rest.map((r) => r.target)];
        throw new SignrunError(
          'SR_OUTPUT_WRITE',
          `${target} could not be put in place (${(error as Error).message}); written: ${written.join(', ') || 'none'}; not written: ${notWritten.join(', ')}`,
          { cause: error, details: { written, notWritten } },
        );
      }
    }
  }

  /** Removes every staged temp file, then the folders staging made that are empty. */
  async discard(): Promise<void> {
    this.#settled = true;
    await Promise.all(this.#files.map((f) => f.file.discard()));
    this.#files.length = 0;
    for (const dir of [...this.#madeFolders].reverse()) {
      // Only an empty folder goes: anything put there meanwhile stays.
      await rmdir(dir).catch(() => undefined);
    }
  }
}
