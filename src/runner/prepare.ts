import { loadConfig } from '../config/index.js';
import type { SignrunConfig } from '../config/types.js';
import { loadJobs } from '../jobs/index.js';
import type { Diagnostic, LoadStats, ResolvedJob } from '../jobs/model.js';
import { inShard, type Shard } from '../state/shard.js';
import { identityOf } from './identity.js';

/** What `run` and `plan` start from: valid configuration and jobs, or the diagnostics that stop them. */
export type Prepared =
  | { ok: true; config: SignrunConfig; jobs: ResolvedJob[]; warnings: Diagnostic[]; stats: LoadStats }
  | {
      ok: false;
      errors: Diagnostic[];
      warnings: Diagnostic[];
      stats?: LoadStats;
      /** The configuration, when it was valid and the job files were not (where the reports of refused input go). */
      config?: SignrunConfig;
    };

/**
 * Configuration, then job files (validation always runs first: with any
 * error nothing is sent). With a shard, only the envelopes and accounts whose
 * identity falls in it are kept (src/state/shard.ts).
 */
export async function prepare(
  patterns: string[],
  options: { cwd: string; env: NodeJS.ProcessEnv; shard?: Shard; signal?: AbortSignal; streamRows?: boolean },
): Promise<Prepared> {
  const config = await loadConfig({ cwd: options.cwd, env: options.env });
  if (!config.ok) return { ok: false, errors: config.errors, warnings: [] };
  // The command's first Ctrl-C or SIGTERM stops a big campaign's validation too (SR_INTERRUPTED, exit 130).
  const loaded = await loadJobs(patterns, {
    cwd: options.cwd,
    env: options.env,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.streamRows ? { streamRows: true } : {}),
  });
  if (!loaded.ok)
    return {
      ok: false,
      errors: loaded.errors,
      warnings: [...config.warnings, ...loaded.warnings],
      stats: loaded.stats,
      config: config.config,
    };
  let jobs = loaded.jobs;
  if (options.shard) {
    const shard = options.shard;
    jobs = jobs.map((job) => ({
      ...job,
      envelopes: job.envelopes.filter((e) => inShard(identityOf(e), shard)),
      accounts: job.accounts.filter((a) => inShard(identityOf(a), shard)),
    }));
  }
  return {
    ok: true,
    config: config.config,
    jobs,
    warnings: [...config.warnings, ...loaded.warnings],
    stats: loaded.stats,
  };
}
