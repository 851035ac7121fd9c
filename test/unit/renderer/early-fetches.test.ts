import { describe, expect, it } from 'vitest';
import { contractRequest } from '../../../src/shared/contract/http-request.js';
import { DELIVERY_PAGE_SIZE, firstScreenPaths } from '../../../src/renderer/boot/early-fetches.js';

/**
 * The boot script spells the first screen's GET paths itself (the contract is too big to load
 * first); an early read is only taken when its path is the contract's, so these must agree.
 */
describe("the boot script's early reads", () => {
  it('are the contract’s paths for a webhook’s page: who is signed in, the factory, list, log', () => {
    const uid = 'wh_0123456789abcdefghijklmn';
    expect(firstScreenPaths(['webhooks', uid, 'dlv_x'])).toEqual([
      contractRequest('relay.status', {}).pathAndQuery,
      contractRequest('factories.list', {}).pathAndQuery,
      contractRequest('webhooks.list', {}).pathAndQuery,
      contractRequest('deliveries.list', { uid, limit: DELIVERY_PAGE_SIZE }).pathAndQuery,
    ]);
  });

  it('read the list on the Webhooks page, and only what every page needs elsewhere', () => {
    expect(firstScreenPaths([])).toEqual(['/api/status', '/api/factories', '/api/webhooks']);
    expect(firstScreenPaths(['runs', 'run_1'])).toEqual(['/api/status', '/api/factories']);
  });
});
