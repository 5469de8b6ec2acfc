import { mkdirSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandHandler } from '../command.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { startSandbox } from '../../sandbox/server.js';
import { lineBatch } from '../line-batch.js';

/**
 * `signrun serve`: the sandbox until Ctrl-C / SIGTERM (DESIGN.md, fixed
 * contract). Prints `sandbox listening on http://HOST:PORT/restapi/v2` once
 * ready; on the signal, finishes requests in flight and closes the database.
 */
const handler: CommandHandler = async ({ options, io, signal }) => {
  const dataDir = typeof options['data'] === 'string' ? resolve(io.cwd, options['data']) : undefined;
  if (dataDir) {
    try {
      mkdirSync(dataDir, { recursive: true });
    } catch (cause) {
      throw new SignrunError('SR_SANDBOX_START', `cannot create the data folder ${dataDir}`, { cause });
    }
    // The data folder holds the sandbox CA's private key and its password
    // file: kept out of git in any repository it is made in (`wx`: a
    // .gitignore already there is left as it is).
    try {
      writeFileSync(resolve(dataDir, '.gitignore'), '# written by signrun serve: sandbox data, keys included\n*\n', {
        flag: 'wx',
      });
    } catch (cause) {
      if ((cause as { code?: string }).code !== 'EEXIST')
        throw new SignrunError('SR_SANDBOX_START', `cannot write in the data folder ${dataDir}`, { cause });
    }
  }
  const requestLog = lineBatch((text) => io.stdout.write(text));
  const sandbox = await startSandbox({
    host: options['host'] as string | undefined,
    port: options['port'] as number | undefined,
    dataDir,
    seedFile: typeof options['seed'] === 'string' ? resolve(io.cwd, options['seed']) : undefined,
    latencyMs: options['latency'] as number | undefined,
    hourlyLimit: options['hourlyLimit'] as number | undefined,
    viewTokenTtlSeconds: options['tokenTtl'] as number | undefined,
    burstLimit: options['burstLimit'] as number | undefined,
    faults: options['faults'] as string | undefined,
    faultSeed: options['faultSeed'] as number | undefined,
    log: (line) => requestLog.line(line),
  });
  requestLog.flush(); // anything logged while starting comes before the ready line
  io.stdout.write(`sandbox listening on ${sandbox.rootUrl}\n`);
  // No password here: output is a log, and secrets stay out of logs (the built-in ones are in docs/sandbox.md).
  const seedFile = typeof options['seed'] === 'string' ? options['seed'] : undefined;
  const seed = {
    'built-in': 'built-in seed (user sandbox@signrun.test, integrator key sandbox-integrator-key; see docs/sandbox.md)',
    file: `seed ${seedFile ?? ''}`,
    'kept-existing-data': `existing data kept${seedFile !== undefined ? ` (--seed ${seedFile} ignored: the data folder already has accounts)` : ''}`,
  }[sandbox.app.sandbox.seed];
  io.stdout.write(
    `  ${seed}; data ${dataDir ? `in ${dataDir}` : 'in memory'}; outbox ${sandbox.origin}/sandbox/outbox\n`,
  );
  await new Promise<void>((resolveWait) => {
    if (signal.aborted) resolveWait();
    else signal.addEventListener('abort', () => resolveWait(), { once: true });
  });
  await sandbox.close();
  requestLog.flush();
  io.stdout.write('sandbox stopped\n');
  return 0;
};
export default handler;
