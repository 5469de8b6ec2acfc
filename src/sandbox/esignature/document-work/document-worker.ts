// A thread of the sandbox's document pool (document-work-pool.ts, piscina):
// runs one task at a time on bytes a client sent, so that a document that
// takes long or grows large costs this thread, never the event loop that
// answers everyone else. The pool ends the thread at its task's deadline or
// when it passes its memory limit, and starts another.
import { move, transferableSymbol, valueSymbol } from 'piscina';
import { ownedBuffers, runDocumentTask, type DocumentTask } from './document-tasks.js';

export default async function documentWorker(task: DocumentTask): Promise<unknown> {
  const outcome = await runDocumentTask(task);
  // The answer's bytes (a PDF, a body's documents) are moved back, not copied on the event loop's side.
  const buffers = outcome.ok ? ownedBuffers(outcome.value) : [];
  if (buffers.length === 0) return outcome;
  return move({ [transferableSymbol]: buffers, [valueSymbol]: outcome });
}
