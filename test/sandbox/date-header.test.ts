import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildSandboxApp } from '../../src/sandbox/app.js';

// The Date header is the sandbox clock's time (a client times the hourly limit's reset by it); its text is
// made once a second (app.ts), so it must follow the clock whenever the clock's second changes.
const apps: FastifyInstance[] = [];
afterEach(async () => {
  for (const a of apps.splice(0)) await a.close();
});

describe('the Date header', () => {
  it('follows the sandbox clock, second by second, forward and back', async () => {
    let now = Date.UTC(2026, 0, 5, 10, 0, 0, 100);
    const app = await buildSandboxApp({}, { clock: { now: () => now } });
    apps.push(app);
    const date = async () =>
      (await app.inject({ method: 'GET', url: '/restapi/v2.1/accounts', headers: { host: '127.0.0.1' } })).headers[
        'date'
      ];
    expect(await date()).toBe('Mon, 05 Jan 2026 10:00:00 GMT');
    now += 800; // the same second
    expect(await date()).toBe('Mon, 05 Jan 2026 10:00:00 GMT');
    now += 200; // the next one
    expect(await date()).toBe('Mon, 05 Jan 2026 10:00:01 GMT');
    now += 3 * 3600_000;
    expect(await date()).toBe('Mon, 05 Jan 2026 13:00:01 GMT');
    now -= 86_400_000; // a clock set back
    expect(await date()).toBe('Sun, 04 Jan 2026 13:00:01 GMT');
  });
});
