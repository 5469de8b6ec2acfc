import { describe, expect, it } from 'vitest';
import { lineBatch } from '../../src/cli/line-batch.js';

describe('lineBatch', () => {
  it('sends the lines of one event-loop turn as one write, in order, on the next turn', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text));
    batch.line('GET /a 200');
    batch.line('GET /b 404');
    expect(writes).toEqual([]);
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['GET /a 200\nGET /b 404\n']);
    batch.line('GET /c 200');
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['GET /a 200\nGET /b 404\n', 'GET /c 200\n']);
  });

  it('flush writes what is queued now, once', async () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text));
    batch.line('last request');
    batch.flush();
    expect(writes).toEqual(['last request\n']);
    batch.flush();
    await new Promise((resolve) => setImmediate(resolve));
    expect(writes).toEqual(['last request\n']);
  });
});
