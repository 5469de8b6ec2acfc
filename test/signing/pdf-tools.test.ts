import { describe, expect, it } from 'vitest';
import { tool } from './pdf-tools.js';

describe('the PDF tools the tests use', () => {
  it('a missing tool is named, with how to install it (not "expected 1 to be +0")', async () => {
    await expect(tool('qpdf-not-installed-here', ['--check', 'x.pdf'])).rejects.toThrow(
      /qpdf-not-installed-here is not installed: .*apt-get install poppler-utils qpdf/,
    );
  });

  it('an installed tool answers with its exit code', async () => {
    expect((await tool('qpdf', ['--version'])).code).toBe(0);
  });
});
