/**
 * A body shaped like a provider's event (repeated keys, varied values), about `bytes` long (one
 * item more at most): it compresses as real payloads do (PostgreSQL compresses large values) and
 * has as many distinct trigrams (the log search indexes them), not as a run of one letter would.
 */
export function eventBody(bytes: number): Buffer {
  const items: unknown[] = [];
  let text = JSON.stringify({ action: 'opened', items });
  for (let i = 0; text.length < bytes - 200; i++) {
    const id = Math.floor(Math.random() * 1e9);
    items.push({
      id,
      node_id: Math.random().toString(36).slice(2),
      url: `https://api.example.com/repos/acme/app/issues/${id}`,
      title: Math.random().toString(36).repeat(2),
      state: i % 3 === 0 ? 'open' : 'closed',
      labels: [{ name: 'bug', color: Math.random().toString(16).slice(2, 8) }],
    });
    text = JSON.stringify({ action: 'opened', items });
  }
  return Buffer.from(text, 'utf8');
}
