import { describe, expect, it } from 'vitest';
import { orderedGuid } from '../../src/sandbox/platform/db/ordered-guid.js';
import { defaultSeedIds } from '../../src/sandbox/index.js';
import { injectedSandbox } from './helpers/injected-sandbox.js';
import { authHeader, call, documentEnvelope, makePdf } from './helpers/api.js';

describe('orderedGuid (envelope ids)', () => {
  it("has DocuSign's GUID shape, version 7 and RFC 9562's variant", () => {
    const id = orderedGuid(Date.UTC(2026, 10, 29));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    // The first 48 bits are the time in milliseconds.
    expect(parseInt(id.slice(0, 8) + id.slice(9, 13), 16)).toBe(Date.UTC(2026, 10, 29));
  });

  it('sorts in the order of the times it was made at, whatever its random bits', () => {
    const start = Date.UTC(2026, 10, 29, 1, 0, 0);
    const ids = Array.from({ length: 1000 }, (_, i) => orderedGuid(start + i));
    expect([...ids].sort()).toEqual(ids);
  });

  it('never repeats within one millisecond (74 random bits, drawn in batches)', () => {
    const ids = new Set(Array.from({ length: 5000 }, () => orderedGuid(1_800_000_000_000)));
    expect(ids.size).toBe(5000);
  });
});

describe('envelope ids made by the sandbox', () => {
  it('are time-ordered GUIDs', async () => {
    const sandbox = await injectedSandbox();
    try {
      const created = await call(`${sandbox.rootUrl}/accounts/${defaultSeedIds.accountId}/envelopes`, {
        headers: authHeader(),
        body: documentEnvelope(await makePdf(1)),
      });
      expect(created.status).toBe(201);
      const id = (created.json as { envelopeId: string }).envelopeId;
      expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      // Made now: its first 48 bits are a time within the test's minute.
      expect(Math.abs(parseInt(id.slice(0, 8) + id.slice(9, 13), 16) - Date.now())).toBeLessThan(60_000);
    } finally {
      await sandbox.close();
    }
  });
});
