// A thread of the sandbox's document pool (document-work-pool.ts, piscina):
// runs one task at a time on bytes a client sent, so that a document that
// takes long or grows large costs this thread, never the event loop that
// answers everyone else. The pool ends the thread at its task's deadline or
// when it passes its memory limit, and starts another.
import { runDocumentTask, type DocumentTask } from './document-tasks.js';

export default function documentWorker(task: DocumentTask) {
  return runDocumentTask(task);
}
