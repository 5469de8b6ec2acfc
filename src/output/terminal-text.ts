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

/**
 * signrun's own terminal sequences: colours and styles (SGR, `ESC [ … m`,
 * from picocolors) and the progress bar's return-and-erase (`CR ESC [ 2 K`).
 */
// eslint-disable-next-line no-control-regex -- these are the control sequences signrun itself writes
const OWN_SEQUENCE = /\r?\x1b\[2K|\x1b\[[0-9;]*m/y;

/**
 * A whole chunk of console output, made safe at the last moment: every
 * control character escaped as {@link terminalSafe} does, except the line
 * break, and — when the stream is a terminal signrun draws on — its own
 * colour and erase sequences. A value that reached the console without
 * passing terminalSafe can then no longer clear the screen, retitle the
 * window, move the cursor, make a link or forge a line (`\r`): on a colour
 * terminal, at most an SGR sequence of its own changes a colour.
 */
export function terminalOutput(text: string, ownSequences: boolean): string {
  // A regular expression of its own: terminalSafe's replace() resets the shared one's lastIndex.
  const unsafe = new RegExp(UNSAFE.source, 'gu');
  let out = '';
  let from = 0;
  for (let m = unsafe.exec(text); m !== null; m = unsafe.exec(text)) {
    const at = m.index;
    if (m[0] === '\n') continue;
    if (ownSequences) {
      OWN_SEQUENCE.lastIndex = at;
      const own = OWN_SEQUENCE.exec(text);
      if (own) {
        unsafe.lastIndex = at + own[0].length;
        continue;
      }
    }
    out += text.slice(from, at) + terminalSafe(m[0]);
    from = at + m[0].length;
  }
  return from === 0 ? text : out + text.slice(from);
}
