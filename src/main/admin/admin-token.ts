import { chmodSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { newAdminTokenValue } from './token-values.js';

export interface AdminToken {
  value: string;
  /** True on first start: the token was just created and may be printed, once. */
  created: boolean;
  /** Where it is kept, or null when it came from HOOKPORT_ADMIN_TOKEN. */
  file: string | null;
}

/** PRODUCT.md §10: HOOKPORT_ADMIN_TOKEN wins; otherwise `<data-dir>/admin-token`, mode 0600. */
export function loadAdminToken(dataDir: string, fromEnv: string | undefined): AdminToken {
  if (fromEnv !== undefined && fromEnv.trim() !== '')
    return { value: fromEnv.trim(), created: false, file: null };
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) {
    const value = readFileSync(file, 'utf8').trim();
    if (value.length < 16)
      throw new Error(`${file} holds no usable admin token; delete it to mint a new one.`);
    return { value, created: false, file };
  }
  const value = newAdminTokenValue();
  writeFileSync(file, `${value}\n`, { mode: 0o600, flag: 'wx' });
  chmodSync(file, 0o600);
  return { value, created: true, file };
}
