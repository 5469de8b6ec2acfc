import { deflateSync, inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { inflatedOnce } from '../../src/jobs/inflated-streams.js';

// Per-row letters made from one template hold the same object stream (issue 37): each distinct
// stream is inflated once per thread, and what comes back is what zlib gives.
const counted = () => {
  const calls: Buffer[] = [];
  const inflate = (data: Buffer) => {
    calls.push(data);
    return inflateSync(data).toString('latin1');
  };
  return { calls, inflate };
};

describe('inflatedOnce', () => {
  it('inflates the same compressed bytes once, from any buffer holding them, and different bytes again', () => {
    const { calls, inflate } = counted();
    const text = `1 0 2 40 << /Type /Catalog /Pages 2 0 R >> << /Type /Pages /Count 1 >> ${Math.random()}`;
    const stream = deflateSync(text);
    // The same bytes at another place of another file: found by their content.
    const elsewhere = Buffer.concat([Buffer.from('%PDF-1.7 padding '), stream]).subarray(17);
    expect(inflatedOnce(stream, 1024, inflate)).toBe(text);
    expect(inflatedOnce(elsewhere, 1024, inflate)).toBe(text);
    expect(calls).toHaveLength(1);
    const other = deflateSync(`${text} other`);
    expect(inflatedOnce(other, 1024, inflate)).toBe(`${text} other`);
    expect(calls).toHaveLength(2);
  });

  it('remembers no error, and inflates again a text longer than the limit asked', () => {
    const { calls, inflate } = counted();
    const broken = Buffer.from(`not deflate ${Math.random()}`);
    expect(() => inflatedOnce(broken, 1024, inflate)).toThrow();
    expect(() => inflatedOnce(broken, 1024, inflate)).toThrow();
    expect(calls).toHaveLength(2);
    const text = `${'x'.repeat(100)} ${Math.random()}`;
    const stream = deflateSync(text);
    expect(inflatedOnce(stream, 1024, inflate)).toBe(text);
    const refusing = (data: Buffer) => {
      calls.push(data);
      throw new Error('over the limit');
    };
    expect(() => inflatedOnce(stream, 50, refusing)).toThrow('over the limit');
    expect(calls).toHaveLength(4);
  });

  it('does not remember a stream too large to keep, compressed or inflated', () => {
    const { calls, inflate } = counted();
    const big = Buffer.from(Array.from({ length: 6000 }, () => Math.floor(Math.random() * 256)));
    const stream = deflateSync(big);
    expect(stream.length).toBeGreaterThan(4096);
    inflatedOnce(stream, 1 << 20, inflate);
    inflatedOnce(stream, 1 << 20, inflate);
    expect(calls).toHaveLength(2);
    // Small compressed, large inflated (20 KB of one letter): not kept either.
    const text = `${'z'.repeat(20_000)}${Math.random()}`;
    const dense = deflateSync(text);
    expect(dense.length).toBeLessThan(4096);
    expect(inflatedOnce(dense, 1 << 20, inflate)).toBe(text);
    expect(inflatedOnce(dense, 1 << 20, inflate)).toBe(text);
    expect(calls).toHaveLength(4);
  });
});
