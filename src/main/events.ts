import type { RelayEvent } from '../shared/contract/events.js';

type Listener = (event: RelayEvent) => void;

/** In-process fan-out of relay events; behind this small interface so a shared bus can replace it. */
export class EventBus {
  private readonly listeners = new Set<Listener>();

  subscribe(listener: Listener): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether anyone listens: what only a listener reads (a live entry) is not built for nobody. */
  get listened(): boolean {
    return this.listeners.size > 0;
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
