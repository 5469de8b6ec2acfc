/**
 * Runs tasks for the same envelope one after the other. Two signers of the
 * same routing order (the template's employer and employee) may finish at
 * the same moment: each stamps the CURRENT version of a document, so the
 * second must start from the first one's result, never from the same
 * original (which would lose a signature).
 */
export class EnvelopeLock {
  private readonly tails = new Map<string, Promise<unknown>>();

  run<T>(envelopeId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(envelopeId) ?? Promise.resolve();
    const next = previous.then(task, task);
    const tail = next.catch(() => undefined);
    this.tails.set(envelopeId, tail);
    void tail.then(() => {
      if (this.tails.get(envelopeId) === tail) this.tails.delete(envelopeId);
    });
    return next;
  }
}
