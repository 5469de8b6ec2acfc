import { Writable } from 'node:stream';
import { terminalOutput } from '../output/terminal-text.js';
import { useColour, type CommandIO } from './io.js';

/**
 * The console as every command sees it (main() hands this to each): all
 * that is written to stdout or stderr passes {@link terminalOutput}, so a
 * control character from a job file, a CSV row or the service is shown
 * escaped (`\x1b`, `\x07`) whatever line carries it — the one place that
 * decides, behind the per-value terminalSafe of the reporters (issue 36).
 * signrun's own colours and progress bar stay when the stream is a terminal
 * (or FORCE_COLOR asks for colour).
 */
export function terminalIO(io: CommandIO): CommandIO {
  return { ...io, stdout: guarded(io, 'stdout'), stderr: guarded(io, 'stderr') };
}

function guarded<K extends 'stdout' | 'stderr'>(io: CommandIO, which: K): CommandIO[K] {
  const target = io[which];
  const ownSequences = useColour(io, which) || Boolean(target.isTTY);
  const stream = new Writable({
    decodeStrings: false,
    // Written through at once (no buffering here): output keeps its order, and what main() wrote before the
    // process exits is in the target's hands, as without the guard.
    write(chunk: string | Buffer, encoding, done) {
      const text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
      target.write(terminalOutput(text, ownSequences));
      done();
    },
  });
  return Object.assign(stream, {
    isTTY: target.isTTY,
    ...('columns' in target ? { columns: target.columns } : {}),
  }) as CommandIO[K];
}
