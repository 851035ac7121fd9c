/** A read stopped, or never begun, because its asker had gone (`DeliveriesRepository.count`). */
export class AskerGoneError extends Error {
  constructor() {
    super('The read was stopped: its asker had gone.');
  }
}
