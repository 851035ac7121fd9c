/**
 * The filter lab's cost: POST /api/automations/filter-matches over the newest 500 and 1,000
 * stored ~10 KB payloads of a webhook, against a baseline measured in the same run: reading the
 * same payloads from the same SQLite file and parsing them (what any evaluation must do). The
 * ratio says what the trigger evaluation, the API and the JSON answer add on top.
 */
import Database from 'better-sqlite3';
import { join } from 'node:path';
import { startBenchCore } from '../bench-core.js';
import type { BenchSuite } from './index.js';
import { pullRequestPayload, TEN_KEY_FILTER } from './filter-fixtures.js';
import { sqliteDbOf } from '../../src/main/store/sqlite/sqlite-store.js';

const STORED = 1_000;
const ROUNDS = 7;

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

const msSince = (start: bigint): number => Number(process.hrtime.bigint() - start) / 1e6;

export const filterLabSuite: BenchSuite = {
  name: 'filter-lab',
  async run() {
    const bench = await startBenchCore({ limits: { deliveriesPerMinute: 1e9 } });
    try {
      const created = await bench.post<{
        webhook: { uid: string };
        secret: string;
        ingressUrl: string;
      }>('/api/webhooks', { name: 'lab' });
      for (let i = 0; i < STORED; i++) {
        const body = pullRequestPayload(10 * 1024, i % 2 === 0 ? 'opened' : 'closed').replace(
          '{',
          `{"n":${i},`,
        );
        const sent = await fetch(created.ingressUrl, {
          method: 'POST',
          headers: { authorization: `Bearer ${created.secret}` },
          body,
        });
        if (sent.status !== 202) throw new Error(`stored ${i}: ${sent.status}`);
      }
      const trigger = {
        provider: 'webhook',
        event: 'received',
        filter: {
          webhook_ids: [created.webhook.uid],
          payload: { ...TEN_KEY_FILTER, action: 'opened' },
        },
      };
      const db = new Database(join(sqliteDbOf(bench.core.store).name), { readonly: true });
      const read = db.prepare<[string, number], { body: Buffer }>(`
        SELECT p.body FROM deliveries d JOIN payloads p ON p.delivery_id = d.id
        WHERE d.webhook_uid = ? AND d.label = 'Accepted' ORDER BY d.id DESC LIMIT ?`);
      console.log(`filter lab over ${STORED} stored ~10 KB payloads (${ROUNDS} rounds, median):`);
      for (const limit of [500, 1_000]) {
        const lab: number[] = [];
        const floor: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          let start = process.hrtime.bigint();
          const answer = await bench.post<{ scanned: number; matched: number }>(
            '/api/automations/filter-matches',
            { trigger, limit },
          );
          lab.push(msSince(start));
          if (answer.scanned !== limit || answer.matched !== limit / 2)
            throw new Error(`unexpected answer ${JSON.stringify(answer)}`);
          start = process.hrtime.bigint();
          for (const row of read.all(created.webhook.uid, limit))
            JSON.parse(row.body.toString('utf8'));
          floor.push(msSince(start));
        }
        const [m, f] = [median(lab), median(floor)];
        console.log(
          `  limit ${limit}: filter-matches ${m.toFixed(1)} ms; read + parse alone ${f.toFixed(1)} ms; ratio ${(m / f).toFixed(2)}`,
        );
      }
      db.close();
    } finally {
      await bench.stop();
    }
  },
};
