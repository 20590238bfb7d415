/**
 * A trigger for `work` that runs it one at a time: a trigger while it runs makes one more run
 * after it (while `goOn()` holds), never a second beside it. For drains woken by ledger closes:
 * a close during a drain must not start another drain over the same cursor.
 */
export function oneAtATime(work: () => Promise<void>, goOn: () => boolean = () => true): () => void {
  let running = false;
  let again = false;
  return () => {
    if (running) {
      again = true;
      return;
    }
    running = true;
    void (async () => {
      do {
        again = false;
        await work();
      } while (again && goOn());
      running = false;
    })();
  };
}
