/**
 * Realistic webhook bodies for the search benchmark: commerce and code-hosting events with IDs,
 * URLs, names, timestamps and amounts, from 1 KB to 64 KB. Deterministic (a seeded generator),
 * so every run stores the same bytes.
 */

const WORDS = (
  'opened closed merged paid refunded shipped pending failed created updated review approved ' +
  'invoice customer checkout session charge subscription label milestone release deploy ' +
  'staging production widget gadget sprocket gizmo Zürich Lyon Osaka Porto Québec Tromsø'
).split(' ');

export class SeededRandom {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0 || 1;
  }
  /** [0, 1) */
  next(): number {
    // xorshift32
    let x = this.state;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.state = x >>> 0;
    return this.state / 0x1_0000_0000;
  }
  int(below: number): number {
    return Math.floor(this.next() * below);
  }
  word(): string {
    return WORDS[this.int(WORDS.length)]!;
  }
}

/**
 * Sizes as webhooks come: most bodies are small, a few are large. 60 % 1–4 KB, 30 % 4–16 KB,
 * 10 % 16–64 KB (log-uniform within each band); the mean is about 7 KB.
 */
export function payloadSize(random: SeededRandom): number {
  const band = random.next();
  const [low, high] = band < 0.6 ? [1, 4] : band < 0.9 ? [4, 16] : [16, 64];
  return Math.round(1024 * low * Math.pow(high / low, random.next()));
}

function lineItem(random: SeededRandom, n: number) {
  return {
    id: `li_${(random.int(2 ** 30) * 4096 + n).toString(36)}`,
    sku: `${random.word().toUpperCase()}-${random.int(100_000)}`,
    title: `${random.word()} ${random.word()} ${random.word()}`,
    quantity: 1 + random.int(5),
    price: { amount: random.int(1_000_000) / 100, currency: random.next() < 0.7 ? 'EUR' : 'USD' },
    url: `https://shop.example.com/products/${random.word()}-${random.int(10_000)}`,
    updated_at: new Date(1_700_000_000_000 + random.int(2 ** 31) * 10).toISOString(),
  };
}

/**
 * A body of about `bytes` bytes. `order` names the order it is about (`order_<n>`): the word an
 * operator searches for. `status` is one of a few values every payload shares.
 */
export function realisticPayload(random: SeededRandom, bytes: number, order: number): string {
  const head = {
    id: `evt_${random.int(2 ** 31).toString(36)}${random.int(2 ** 31).toString(36)}`,
    type: `order.${random.next() < 0.5 ? 'paid' : 'updated'}`,
    created: 1_700_000_000 + random.int(30_000_000),
    data: {
      order: `order_${order}`,
      status: random.word(),
      customer: {
        id: `cus_${random.int(2 ** 31).toString(36)}`,
        name: `${random.word()} ${random.word()}`,
        email: `${random.word()}.${random.int(10_000)}@example.org`,
        city: random.word(),
      },
      items: [] as unknown[],
    },
  };
  // Lengths add up (an item and its comma), so the body is serialized once.
  let length = JSON.stringify(head).length;
  const items = head.data.items;
  while (length < bytes) {
    const item = lineItem(random, items.length);
    items.push(item);
    length += JSON.stringify(item).length + 1;
  }
  return JSON.stringify(head);
}
