import { RenditionError } from './rendition-error.js';
import type { TextBlock } from './text-blocks.js';

/** How much text a rendition lays out. */
export interface TextBudget {
  /** Most characters of all blocks together. */
  readonly characters: number;
  /** Most characters of one word (a run without a space or a line break). */
  readonly wordCharacters: number;
}

/**
 * Checks a document's text against its budget before any of it is laid out:
 * one pass over the characters, stopping at the first one past a limit. A
 * document over it would be cut into thousands of lines of one word (100 KB
 * of `x`) or laid out for longer than anyone waits (issue 36); a contract
 * has neither. Text written without spaces (Chinese, Japanese) is one word
 * per paragraph here, as the wrapping sees it.
 */
export function checkTextBudget(blocks: readonly TextBlock[], budget: TextBudget): void {
  let characters = 0;
  for (const block of blocks) {
    const text = block.text;
    characters += text.length;
    if (characters > budget.characters)
      throw new RenditionError(
        `The document holds more than ${budget.characters.toLocaleString('en-US')} characters of text.`,
        'characters',
      );
    let word = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      word = code === 0x20 || code === 0x0a ? 0 : word + 1;
      if (word > budget.wordCharacters)
        throw new RenditionError(
          `The document holds a word longer than ${budget.wordCharacters.toLocaleString('en-US')} characters (at character ${(characters - text.length + i - word + 1).toLocaleString('en-US')}).`,
          'wordCharacters',
        );
    }
  }
}
