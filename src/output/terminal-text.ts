/**
 * Control characters (C0, DEL, C1: `\p{Cc}`) and the invisible characters
 * that reorder or hide text (bidirectional overrides and isolates, U+200B–
 * U+200F, U+202A–U+202E, U+2060–U+2069, U+FEFF).
 */
const UNSAFE = /[\p{Cc}\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/gu;

const NAMED: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * A value from a job file, a CSV row or the service, as a console line may
 * carry it: every control character shown as an escape (`\x1b`, `\x07`,
 * `\n`, `\u202e`) instead of being sent to the terminal. A recipient's name
 * holding `ESC [2J` or `ESC ] 0 ; title BEL` would otherwise clear the
 * screen or retitle the window when `run` prints who is still to sign
 * (issue 36); a line break in a value would forge a line of its own. Reports
 * escape for their own format (HTML, XML, Markdown); this is the console's.
 * Every console reporter and command line that prints such a value calls it.
 */
export function terminalSafe(value: string): string {
  return value.replace(UNSAFE, (ch) => {
    const named = NAMED[ch];
    if (named) return named;
    const code = ch.codePointAt(0)!;
    return code <= 0xff ? `\\x${code.toString(16).padStart(2, '0')}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
