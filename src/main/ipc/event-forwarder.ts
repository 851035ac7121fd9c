import type { WebContents } from 'electron';
import { IPC_EVENT_CHANNEL } from '../../shared/bridge.js';
import type { EventBus } from '../events.js';

/** Pushes relay events (new deliveries, run status) to the window, as SSE does for the browser. */
export function forwardEvents(events: EventBus, contents: WebContents): () => void {
  return events.subscribe((event) => {
    if (!contents.isDestroyed()) contents.send(IPC_EVENT_CHANNEL, event);
  });
}
