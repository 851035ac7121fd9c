import {
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { get } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, constants, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UI_DIR } from '../../e2e/support/browser.js';
import { startTestRelay, type TestRelay } from '../../support/relay.js';

/** A GET with exactly these request headers (fetch would add and undo its own Accept-Encoding). */
function fetchRaw(
  url: string,
  headers: Record<string, string>,
): Promise<{
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
    }).on('error', reject);
  });
}

/** The UI's assets travel compressed (`npm run build` first: the built UI is what is served). */
describe('the UI’s assets', () => {
  let relay: TestRelay;
  // The largest script: a few tiny chunks are served as they are, too small to gain from compression.
  const [script, raw] = readdirSync(join(UI_DIR, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .map((name) => [name, readFileSync(join(UI_DIR, 'assets', name))] as const)
    .reduce((largest, next) => (next[1].length > largest[1].length ? next : largest));
  beforeAll(async () => {
    relay = await startTestRelay({ uiDir: UI_DIR });
  });
  afterAll(() => relay.stop());

  it('are sent with brotli or gzip to a browser that takes them, byte for byte the same', async () => {
    const url = `${relay.adminUrl}/assets/${script}`;
    const br = await fetchRaw(url, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('Accept-Encoding');
    expect(br.body.length).toBeLessThan(raw.length / 3);
    expect(brotliDecompressSync(br.body).equals(raw)).toBe(true);

    const gz = await fetchRaw(url, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.body).equals(raw)).toBe(true);

    const plain = await fetchRaw(url, {});
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body.equals(raw)).toBe(true);
  });

  it('keep their security and caching headers when compressed', async () => {
    const page = await fetchRaw(`${relay.adminUrl}/`, { 'accept-encoding': 'br' });
    expect(page.headers['content-security-policy']).toContain("script-src 'self'");
    expect(page.headers['cache-control']).toBe('no-cache');
    const asset = await fetchRaw(`${relay.adminUrl}/assets/${script}`, { 'accept-encoding': 'br' });
    expect(asset.headers['cache-control']).toContain('immutable');
  });
});

/** A copy of the built UI whose main script's compressed files the test may change. */
function copiedUi(): { dir: string; script: string } {
  const dir = mkdtempSync(join(tmpdir(), 'hookport-ui-'));
  cpSync(UI_DIR, dir, { recursive: true });
  const script = readdirSync(join(dir, 'assets'))
    .filter((name) => name.endsWith('.js'))
    .reduce((largest, next) =>
      statSync(join(dir, 'assets', next)).size > statSync(join(dir, 'assets', largest)).size
        ? next
        : largest,
    );
  return { dir, script };
}

describe('the build’s own compressed files', () => {
  it('are sent as built, from the first request after the start on', async () => {
    const { dir, script } = copiedUi();
    const path = join(dir, 'assets', script);
    // Other valid brotli of the same bytes: sent as it is only if the relay reads the build's file.
    const fast = brotliCompressSync(readFileSync(path), {
      params: { [constants.BROTLI_PARAM_QUALITY]: 1 },
    });
    writeFileSync(`${path}.br`, fast);
    const relay = await startTestRelay({ uiDir: dir });
    try {
      const br = await fetchRaw(`${relay.adminUrl}/assets/${script}`, { 'accept-encoding': 'br' });
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.body.equals(fast)).toBe(true);
    } finally {
      await relay.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('are not sent for a file changed after the build: its new bytes are', async () => {
    const { dir, script } = copiedUi();
    const path = join(dir, 'assets', script);
    const changed = Buffer.concat([
      readFileSync(path),
      Buffer.from('\n// changed after the build\n'),
    ]);
    writeFileSync(path, changed);
    const relay = await startTestRelay({ uiDir: dir });
    try {
      const url = `${relay.adminUrl}/assets/${script}`;
      const br = await fetchRaw(url, { 'accept-encoding': 'br' });
      expect(brotliDecompressSync(br.body).equals(changed)).toBe(true);
      const gz = await fetchRaw(url, { 'accept-encoding': 'gzip' });
      expect(gunzipSync(gz.body).equals(changed)).toBe(true);
    } finally {
      await relay.stop();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
