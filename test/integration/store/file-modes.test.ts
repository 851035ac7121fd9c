import { chmodSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { bearer, postDelivery, startTestRelay, tempDir } from '../../support/relay.js';

const modeOf = (path: string): number => statSync(path).mode & 0o777;

describe('the SQLite files, which hold every payload', () => {
  it('are owner-only in a data dir that others may read', async () => {
    const dataDir = join(tempDir(), 'shared');
    mkdirSync(dataDir, { mode: 0o755 });
    chmodSync(dataDir, 0o755);
    const relay = await startTestRelay({ dataDir });
    try {
      const { ingressUrl, secret } = await relay.createWebhook({ name: 'modes' });
      expect((await postDelivery(ingressUrl, '{"private":true}', bearer(secret))).status).toBe(202);

      // The relay's file and the search index's (its own since schema version 17), each in WAL.
      const files = readdirSync(dataDir).filter((name) =>
        /^hookport\.(search\.)?sqlite/.test(name),
      );
      expect(files.sort()).toEqual([
        'hookport.search.sqlite',
        'hookport.search.sqlite-shm',
        'hookport.search.sqlite-wal',
        'hookport.sqlite',
        'hookport.sqlite-shm',
        'hookport.sqlite-wal',
      ]);
      for (const name of files) expect(modeOf(join(dataDir, name)), name).toBe(0o600);
    } finally {
      await relay.stop();
    }
  });

  it('are tightened at start when an earlier version left them readable', async () => {
    const dataDir = tempDir();
    const first = await startTestRelay({ dataDir });
    await first.stop();
    for (const name of ['hookport.sqlite', 'hookport.sqlite-wal', 'hookport.search.sqlite']) {
      const path = join(dataDir, name);
      writeFileSync(path, '', { flag: 'a' });
      chmodSync(path, 0o644);
    }

    const again = await startTestRelay({ dataDir });
    try {
      expect(modeOf(join(dataDir, 'hookport.sqlite'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'hookport.sqlite-wal'))).toBe(0o600);
      expect(modeOf(join(dataDir, 'hookport.search.sqlite'))).toBe(0o600);
    } finally {
      await again.stop();
    }
  });
});
