const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/**
 * The smallest delivery ID (`dlv_` + ULID) minted at or after `ms`. IDs sort by time, and an
 * ID's time is never earlier than its receive time, so `id >= idFloor(t)` holds for every
 * delivery received at or after t, and `id < idFloor(t)` pages the log from just before t.
 */
export function idFloor(ms: number): string {
  let time = '';
  for (let i = 0, t = Math.max(0, Math.floor(ms)); i < 10; i++, t = Math.floor(t / 32)) {
    time = CROCKFORD[t % 32]! + time;
  }
  return `dlv_${time}${'0'.repeat(16)}`;
}

/** When a delivery ID was minted (epoch ms): the time its ULID starts with. */
export function idTime(id: string): number {
  let ms = 0;
  for (const char of id.slice(4, 14).toUpperCase()) ms = ms * 32 + CROCKFORD.indexOf(char);
  return ms;
}
