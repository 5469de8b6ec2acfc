import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { CommandHandler } from '../command.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { startSandbox } from '../../sandbox/server.js';
import type { PollingRule } from '../../sandbox/contract.js';
import { tlsCaCertPath } from '../../sandbox/platform/tls/tls-ca.js';
import { lineBatch } from '../line-batch.js';

/**
 * `signrun serve`: the sandbox until Ctrl-C / SIGTERM (DESIGN.md, fixed
 * contract). Prints `sandbox listening on http://HOST:PORT/restapi/v2` once
 * ready; on the signal, finishes requests in flight and closes the database.
 */
const handler: CommandHandler = async ({ options, io, signal }) => {
  const dataDir = typeof options['data'] === 'string' ? resolve(io.cwd, options['data']) : undefined;
  /** The first folder this start created for --data (none when it was there): removed again if the start fails. */
  let created: string | undefined;
  if (dataDir) {
    try {
      created = mkdirSync(dataDir, { recursive: true });
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
    // A long-lived server: its first document finds a thread with the PDF libraries compiled.
    warmDocumentThread: true,
    host: options['host'] as string | undefined,
    publicUrl: options['publicUrl'] as string | undefined,
    ...(options['allowKeyGeneration'] === true ? { allowKeyGeneration: true } : {}),
    port: options['port'] as number | undefined,
    tls: options['tls'] === true,
    dataDir,
    seedFile: typeof options['seed'] === 'string' ? resolve(io.cwd, options['seed']) : undefined,
    latencyMs: options['latency'] as number | undefined,
    hourlyLimit: options['hourlyLimit'] as number | undefined,
    hourlyWindowSeconds: options['hourlyWindow'] as number | undefined,
    viewTokenTtlSeconds: options['tokenTtl'] as number | undefined,
    burstLimit: options['burstLimit'] as number | undefined,
    faults: options['faults'] as string | undefined,
    faultSeed: options['faultSeed'] as number | undefined,
    pollingRule: options['pollingRule'] as PollingRule | undefined,
    log: (line) => requestLog.line(line),
  }).catch((error: unknown) => {
    // A start that fails (a port in use, a bad seed) leaves no data folder it made behind; one that was there stays.
    if (created !== undefined) rmSync(created, { recursive: true, force: true });
    throw error;
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
  // What a JWT client needs: the OAuth base (DOCUSIGN_OAUTH_BASE, DESIGN.md) and, over TLS, the CA to trust.
  io.stdout.write(
    `  OAuth (JWT grant, userinfo, consent): ${sandbox.origin}/oauth; key pairs: ${
      sandbox.app.sandbox.config.keyRegistration
        ? `POST ${sandbox.origin}/sandbox/integrations/<key>/rsa-keys (signed in as a user of the seed)`
        : 'off with --public-url (--allow-key-generation turns them on)'
    }\n`,
  );
  // DocuSign's Admin API (organisations, accounts created and cloned, users across accounts): DOCUSIGN_ADMIN_BASE.
  io.stdout.write(`  Admin API (organizations, asset groups, users): ${sandbox.origin}/management\n`);
  if (options['tls'] === true) {
    io.stdout.write(
      dataDir
        ? `  TLS: clients trust the sandbox's CA, e.g. NODE_EXTRA_CA_CERTS=${tlsCaCertPath(dataDir)}\n`
        : `  TLS: clients trust the sandbox's CA (new at each start without --data): save ${sandbox.origin}/sandbox/ca.pem and point NODE_EXTRA_CA_CERTS at it\n`,
    );
  }
  // Signers come back to a job's returnUrl; the examples' (examples/.env) is this page on the default port.
  const donePage = `${sandbox.app.sandbox.config.origin ?? sandbox.origin}/signing/done`;
  io.stdout.write(
    donePage === 'http://127.0.0.1:8080/signing/done'
      ? `  signers return to ${donePage} (the examples' SIGNRUN_RETURN_URL)\n`
      : `  signers return to ${donePage}: for the examples, export SIGNRUN_RETURN_URL=${donePage}\n`,
  );
  // The links it hands out start with the configured address, never with the
  // name a client used (docs/sandbox.md, "On a network").
  const linksAt = sandbox.app.sandbox.config.origin;
  if (linksAt !== undefined && linksAt !== sandbox.origin) io.stdout.write(`  public address ${linksAt}\n`);
  else if (options['host'] === '0.0.0.0' || options['host'] === '::')
    io.stdout.write(
      `  links handed out start with ${sandbox.origin}: to reach them from other machines, add --public-url http://NAME:${new URL(sandbox.origin).port}\n`,
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
