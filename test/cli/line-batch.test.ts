import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lineBatch } from '../../src/cli/line-batch.js';

describe('lineBatch', () => {
  // The window is a timer: the tests move a fake clock (this file's only), never wait.
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('sends the lines of one window as one write, in order, once the first line has waited windowMs', () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { windowMs: 25 });
    batch.line('GET /a 200');
    vi.advanceTimersByTime(10);
    batch.line('GET /b 404');
    vi.advanceTimersByTime(14);
    expect(writes).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['GET /a 200\nGET /b 404\n']);
    batch.line('GET /c 200');
    vi.advanceTimersByTime(25);
    expect(writes).toEqual(['GET /a 200\nGET /b 404\n', 'GET /c 200\n']);
    vi.advanceTimersByTime(1000);
    expect(writes).toHaveLength(2);
  });

  it('writes a batch that reaches maxChars at once, without waiting for the window', () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text), { windowMs: 25, maxChars: 20 });
    batch.line('0123456789'); // 11 characters with its newline
    expect(writes).toEqual([]);
    batch.line('abcdefghij');
    expect(writes).toEqual(['0123456789\nabcdefghij\n']);
    batch.line('next');
    vi.advanceTimersByTime(25);
    expect(writes).toEqual(['0123456789\nabcdefghij\n', 'next\n']);
  });

  it('flush writes what is queued now, once', () => {
    const writes: string[] = [];
    const batch = lineBatch((text) => writes.push(text));
    batch.line('last request');
    batch.flush();
    expect(writes).toEqual(['last request\n']);
    batch.flush();
    vi.advanceTimersByTime(1000);
    expect(writes).toEqual(['last request\n']);
  });
});
