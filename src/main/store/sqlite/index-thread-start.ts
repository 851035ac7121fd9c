import type { FromWriterThread } from './writer-thread-protocol.js';
import { startThread, type ThreadScript } from './thread-script.js';
import type { FromIndexThread, IndexThreadData, ToIndexThread } from './index-thread-protocol.js';

/**
 * Starts the index thread (index-thread.ts) for the relay's `file`; its reports (`indexed`,
 * `index-failed`) go to `report`. `close` asks it to close its connections and resolves once it
 * has ended (never `terminate()`: a slice would end without its ROLLBACK or COMMIT).
 */
export function startIndexThread(
  file: string,
  script: ThreadScript,
  report: (message: FromWriterThread) => void,
) {
  const worker = startThread(script, { workerData: { file } satisfies IndexThreadData });
  let ended = false;
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  void exited.then(() => (ended = true));
  worker.on('message', (message: FromIndexThread) => {
    if (message.type !== 'closed') report(message);
  });
  worker.on('error', (error) =>
    report({
      type: 'index-failed',
      error: { name: error.name, message: error.message, code: null },
    }),
  );
  return {
    tell: (message: ToIndexThread): void => {
      if (!ended) worker.postMessage(message);
    },
    close: async (): Promise<void> => {
      if (!ended) worker.postMessage({ type: 'close' } satisfies ToIndexThread);
      await exited;
    },
  };
}
