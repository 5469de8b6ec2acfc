import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Changes } from '../helpers/barrier.js';

/** One POST the receiver saw. */
export interface Received {
  headers: IncomingHttpHeaders;
  raw: string;
  status: number;
}

/**
 * A webhook receiver on 127.0.0.1:0. `failNext(n)` makes the next n POSTs
 * answer 503 (the receiver is "down"); every POST is recorded either way.
 */
export async function startReceiver(): Promise<{
  url: string;
  received: Received[];
  accepted: () => Received[];
  failNext: (n: number) => void;
  /** Resolves once the accepted POSTs (200) satisfy `predicate`: re-checked at each POST, no polling. */
  waitFor: (predicate: (accepted: Received[]) => boolean) => Promise<void>;
  /** The same over every POST seen, failed ones included. */
  waitForReceived: (predicate: (received: Received[]) => boolean) => Promise<void>;
  close: () => Promise<void>;
}> {
  const received: Received[] = [];
  const changes = new Changes();
  let failures = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const status = failures > 0 ? 503 : 200;
      if (failures > 0) failures--;
      received.push({ headers: req.headers, raw: Buffer.concat(chunks).toString('utf8'), status });
      res.writeHead(status).end();
      changes.changed();
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const accepted = () => received.filter((r) => r.status === 200);
  return {
    url: `http://127.0.0.1:${port}/hooks/esign`,
    received,
    accepted,
    failNext: (n) => (failures = n),
    waitFor: (predicate) => changes.until(() => predicate(accepted())),
    waitForReceived: (predicate) => changes.until(() => predicate(received)),
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
