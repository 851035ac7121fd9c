import { Counter, Gauge, type Registry } from 'prom-client';
import type { LinkKind } from '../../shared/contract/links.js';
import type { LinkRecord } from '../store/links.js';

/** `/metrics` for provider links (PRODUCT §17, §19). */
export function createLinkMetrics(registry: Registry, links: () => Promise<LinkRecord[]>) {
  const recovered = new Counter({
    name: 'hookport_recovered_total',
    help: 'Failed deliveries a provider agreed to send again because a link asked, since the relay started',
    labelNames: ['provider'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'hookport_link_check_ok',
    help: "1 when a linked webhook's last provider check found no problem, 0 when it found one",
    labelNames: ['webhook'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const link of await links()) {
        if (link.check) this.set({ webhook: link.webhookUid }, link.check.ok ? 1 : 0);
      }
    },
  });
  return {
    countRecovered(provider: LinkKind, n: number): void {
      if (n > 0) recovered.inc({ provider }, n);
    },
  };
}
