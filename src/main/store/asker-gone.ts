import { ApiError } from '../../shared/errors.js';

/** A read stopped, or never begun, because its asker had gone (`DeliveriesRepository.count`). */
export class AskerGoneError extends Error {
  constructor() {
    super('The read was stopped: its asker had gone.');
  }
}

/** What a transport answers for a read its asker left: no one reads it, and no fault to log. */
export const closedFirst = (): ApiError => new ApiError('unavailable', 'The request closed first.');
