import { PROVIDER_LINKS_SQL } from '../../provider-links-sql.js';

/** Version 13: provider links and the recovery's ledger (see provider-links-sql.ts). */
export const providerLinks = PROVIDER_LINKS_SQL;
