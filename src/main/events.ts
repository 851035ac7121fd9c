import type { RelayEvent } from '../shared/contract/events.js';

type Listener = (event: RelayEvent) => void;

/** In-process fan-out of relay events; behind this small interface so a shared bus can replace it. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  emit(event: RelayEvent): void {
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch {
        // One broken subscriber (a closed stream) must not stop the others.
      }
    }
  }
}
