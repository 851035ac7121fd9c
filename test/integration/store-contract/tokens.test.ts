import { describe, expect, it } from 'vitest';
import { forEachStore, seedRows } from '../../support/repository-contract.js';

const token = (id: string, createdAt: number, role: 'manage' | 'view' = 'manage') => ({
  id,
  name: `token ${id}`,
  role,
  hash: `hash-of-${id}`,
  createdAt,
});

const session = (hash: string, tokenId: string, expiresAt = 2_000) => ({
  hash,
  role: 'view' as const,
  tokenId,
  createdAt: 1_000,
  expiresAt,
});

describe('the API tokens and sessions repository', () => {
  forEachStore((store) => {
    it('finds a live token by its hash, and lists live tokens oldest first', async () => {
      const { tokens } = (await store.open()).repositories;
      await tokens.insert(token('tok_B', 300, 'view'));
      await tokens.insert(token('tok_A', 100));
      await tokens.insert(token('tok_C', 200));

      expect(await tokens.findByHash('hash-of-tok_B')).toStrictEqual({
        id: 'tok_B',
        name: 'token tok_B',
        role: 'view',
        createdAt: 300,
        lastUsedAt: null,
      });
      expect(await tokens.findByHash('hash-of-nobody')).toBeNull();
      expect((await tokens.list()).map((t) => t.id)).toEqual(['tok_A', 'tok_C', 'tok_B']);

      await tokens.touch('tok_A', 999);
      expect((await tokens.findByHash('hash-of-tok_A'))?.lastUsedAt).toBe(999);
    });

    it('refuses a second token with the same hash', async () => {
      const { tokens } = (await store.open()).repositories;
      await tokens.insert(token('tok_A', 1));

      await expect(
        tokens.insert({ ...token('tok_B', 2), hash: 'hash-of-tok_A' }),
      ).rejects.toThrow();
      expect((await tokens.list()).map((t) => t.id)).toEqual(['tok_A']);
    });

    it('revokes once: the token stops working and the sessions opened with it end', async () => {
      const { tokens } = (await store.open()).repositories;
      await tokens.insert(token('tok_A', 1));
      await tokens.insert(token('tok_B', 2));
      await tokens.insertSession(session('s-a', 'tok_A'));
      await tokens.insertSession(session('s-b', 'tok_B'));

      expect(await tokens.revoke('tok_A', 50)).toBe(true);
      expect(await tokens.revoke('tok_A', 60)).toBe(false);
      expect(await tokens.revoke('tok_missing', 60)).toBe(false);

      expect(await tokens.findByHash('hash-of-tok_A')).toBeNull();
      expect((await tokens.list()).map((t) => t.id)).toEqual(['tok_B']);
      expect(await tokens.sessionRole('s-a', 1_500)).toBeNull();
      expect(await tokens.sessionRole('s-b', 1_500)).toBe('view');
    });

    it('answers a session’s role until it expires, and forgets ended or expired sessions', async () => {
      const { tokens } = (await store.open()).repositories;
      await tokens.insertSession({ ...session('s-1', 'admin:abc', 2_000), role: 'manage' });
      await tokens.insertSession(session('s-2', 'admin:abc', 3_000));
      await tokens.insertSession(session('s-3', 'admin:abc', 4_000));

      expect(await tokens.sessionRole('s-1', 1_999)).toBe('manage');
      expect(await tokens.sessionRole('s-1', 2_000)).toBeNull();
      expect(await tokens.sessionRole('unknown', 0)).toBeNull();

      await tokens.deleteSession('s-3');
      expect(await tokens.sessionRole('s-3', 0)).toBeNull();
      await tokens.pruneSessions(3_000);
      // Pruned rows are gone, not just expired: an earlier clock no longer finds them.
      expect(await tokens.sessionRole('s-1', 0)).toBeNull();
      expect(await tokens.sessionRole('s-2', 0)).toBeNull();
    });

    it('at start, ends sessions of other admin tokens and unattributed ones, keeping minted tokens’', async () => {
      const opened = await store.open();
      const { tokens } = opened.repositories;
      await tokens.insertSession(session('current', 'admin:current'));
      await tokens.insertSession(session('previous', 'admin:previous'));
      await tokens.insertSession(session('minted', 'tok_A'));
      await seedRows(opened.database, 'sessions', [
        { id_hash: 'legacy', role: 'manage', token_id: null, created_at: 1, expires_at: 2_000 },
      ]);

      await tokens.endAdminSessionsExcept('admin:current');

      const alive = [];
      for (const hash of ['current', 'previous', 'minted', 'legacy']) {
        if ((await tokens.sessionRole(hash, 1_000)) !== null) alive.push(hash);
      }
      expect(alive).toEqual(['current', 'minted']);
    });
  });
});
