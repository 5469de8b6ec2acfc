import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { CommandHandler } from '../command.js';
import { ExitCode } from '../../errors/catalogue-entry.js';
import { SignrunError } from '../../errors/signrun-error.js';
import { appendConnectEvent, connectEventOf } from '../../sync/connect-events.js';
import { verifyConnectSignatures } from '../../envelope/connect-signature.js';
import { connectFormDataOf, writeConnectFormData } from '../../sync/connect-form-data.js';

/**
 * Largest Connect message accepted. A message without documents is a few KB,
 * with every recipient's tabs a few hundred KB at most; one that carries the
 * documents themselves (the configuration's includeDocuments) is far larger,
 * and signrun needs none of it: it is refused with 413 and a line saying so,
 * instead of a dropped connection Connect would only retry.
 */
const maxBodyBytes = 8 * 1024 * 1024;
/** Past this, a sender still writing is cut off rather than drained. */
const drainLimitBytes = 4 * maxBodyBytes;

/**
 * `signrun listen [--host 127.0.0.1] [--port 8081] [--out DIR] [--state DIR]`:
 * a Connect (webhook) receiver. Each POST's `X-DocuSign-Signature-1…N` is
 * checked against the HMAC keys of `DOCUSIGN_CONNECT_HMAC_KEYS` (comma
 * separated) over the raw body, in constant time; a valid event is appended
 * (fsync'ed) to `<state>/connect-events.jsonl` before the 200, so `sync`
 * can use it when the polling rule forbids a listing. A message of a
 * completed envelope that carries its recipients' tabs (the configuration's
 * `eventData.includeData` has `tabs`) also leaves that envelope's form data
 * in `<state>/connect-form-data/<envelopeId>.json` (written whole, 0600),
 * which `sync` uses instead of reading the recipients. Invalid: 401,
 * nothing recorded. Nothing of a message's content is printed. Runs until Ctrl-C.
 */
const listenCommand: CommandHandler = async ({ options, io, signal }) => {
  const keys = (io.env['DOCUSIGN_CONNECT_HMAC_KEYS'] ?? io.env['DOCUSIGN_CONNECT_HMAC_KEY'] ?? '')
    .split(',')
    .map((k) => k.trim())
    .filter(Boolean);
  if (keys.length === 0)
    throw new SignrunError('SR_USAGE', 'signrun listen needs the Connect HMAC key(s) in DOCUSIGN_CONNECT_HMAC_KEYS', {
      hint: 'Set DOCUSIGN_CONNECT_HMAC_KEYS=<key>[,<key>…] (DocuSign: Settings → Connect → Connect Keys).',
    });
  const outDir = path.resolve(io.cwd, (options['out'] as string | undefined) ?? 'out');
  const stateDir = path.resolve(io.cwd, (options['state'] as string | undefined) ?? path.join(outDir, '.signrun'));
  await mkdir(stateDir, { recursive: true, mode: 0o700 });
  const server = createServer((req, res) => {
    if (req.method !== 'POST') return res.writeHead(405).end();
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > drainLimitBytes) req.destroy();
      else if (size > maxBodyBytes) chunks.length = 0;
      else chunks.push(c);
    });
    req.on('end', () => {
      if (size > maxBodyBytes) {
        io.stderr.write(
          `listen: refused a Connect message of ${(size / 1024 / 1024).toFixed(1)} MiB (over ${maxBodyBytes / 1024 / 1024} MiB) with 413: signrun reads no documents from Connect; in the Connect configuration, turn off "Include documents" (includeDocuments) and keep includeData to recipients and tabs.\n`,
        );
        return res.writeHead(413).end();
      }
      const raw = Buffer.concat(chunks);
      if (!verifyConnectSignatures(raw, req.headers, keys)) return res.writeHead(401).end();
      const receivedAt = new Date();
      let body: unknown;
      try {
        body = JSON.parse(raw.toString('utf8'));
      } catch {
        return res.writeHead(400).end();
      }
      const record = connectEventOf(body, receivedAt);
      if (!record) return res.writeHead(400).end();
      let formData;
      try {
        formData = connectFormDataOf(body, receivedAt);
      } catch {
        formData = undefined; // tabs it cannot read: the event still counts, and sync reads the values itself
      }
      // A completed envelope's form data first, then its event: once sync sees the event, the
      // values are there. Both on disk before the 200, or neither acknowledged.
      (formData ? writeConnectFormData(stateDir, formData) : Promise.resolve())
        .then(() => appendConnectEvent(stateDir, record))
        .then(
          () => res.writeHead(200).end(),
          () => res.writeHead(503).end(), // not recorded: Connect sends it again
        );
    });
  });
  const host = (options['host'] as string | undefined) ?? '127.0.0.1';
  const port = (options['port'] as number | undefined) ?? 8081;
  await new Promise<void>((resolve) => server.listen(port, host, resolve));
  const { port: actual } = server.address() as AddressInfo;
  io.stdout.write(`listen listening on http://${host}:${actual}\n`);
  await new Promise<void>((resolve) => {
    if (signal?.aborted) resolve();
    signal?.addEventListener('abort', () => resolve(), { once: true });
  });
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return ExitCode.ok;
};
export default listenCommand;
