import { readFile, stat } from 'node:fs/promises';
import { promisify } from 'node:util';
import { brotliCompress, brotliDecompress, constants, gunzip, gzip } from 'node:zlib';

const brotli = promisify(brotliCompress);
const gzipped = promisify(gzip);
const unbrotli = promisify(brotliDecompress);
const gunzipped = promisify(gunzip);

export type AssetEncoding = 'br' | 'gzip';

interface Compressed {
  mtimeMs: number;
  br: Buffer;
  gzip: Buffer;
}

/** Text assets are worth compressing; images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|css|html|svg|json|map)$/;
/** Below this the headers cost more than the bytes saved. */
const MIN_BYTES = 1024;

/**
 * The build's own `.br` and `.gz` of the file (electron.vite.config.ts), when both are there and
 * hold its bytes: a file changed since the build, or a UI built without them, is compressed here
 * instead. Checked by unpacking them (a few ms, once per file), not by their times: the build
 * writes a file and its compressed ones in no set order.
 */
async function builtBeside(path: string, raw: Buffer): Promise<Omit<Compressed, 'mtimeMs'> | null> {
  try {
    const [br, gz] = await Promise.all([readFile(`${path}.br`), readFile(`${path}.gz`)]);
    const [fromBr, fromGz] = await Promise.all([unbrotli(br), gunzipped(gz)]);
    return fromBr.equals(raw) && fromGz.equals(raw) ? { br, gzip: gz } : null;
  } catch {
    return null;
  }
}

/**
 * The UI's text assets compressed once, off the event loop (zlib's thread pool), and kept: each
 * file is read and compressed on its first request (or `warm`), again only when it changes on
 * disk (a rebuild while the relay runs). Brotli at its highest quality: done once, so worth it;
 * the build's own compressed files, when there, are read instead (`builtBeside`).
 */
export function createCompressedAssets() {
  const cache = new Map<string, Promise<Compressed | null>>();

  const compress = async (path: string, mtimeMs: number): Promise<Compressed | null> => {
    const raw = await readFile(path);
    if (raw.length < MIN_BYTES) return null;
    const built = await builtBeside(path, raw);
    if (built) return { mtimeMs, ...built };
    const [br, gz] = await Promise.all([
      brotli(raw, {
        params: {
          [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
          [constants.BROTLI_PARAM_SIZE_HINT]: raw.length,
        },
      }),
      gzipped(raw, { level: 9 }),
    ]);
    return { mtimeMs, br, gzip: gz };
  };

  const entry = async (path: string): Promise<Compressed | null> => {
    if (!COMPRESSIBLE.test(path)) return null;
    const { mtimeMs } = await stat(path);
    let cached = cache.get(path);
    const known = cached ? await cached : undefined;
    if (!cached || (known && known.mtimeMs !== mtimeMs)) {
      cached = compress(path, mtimeMs);
      // A failed read is tried again next time, not remembered.
      cached.catch(() => cache.delete(path));
      cache.set(path, cached);
    }
    return cached;
  };

  return {
    /** The file's bytes in `encoding`, or null when it is served as it is. */
    async get(path: string, encoding: AssetEncoding): Promise<Buffer | null> {
      const found = await entry(path);
      return found ? found[encoding] : null;
    },
    /** Compresses these files ahead of their first request; failures wait for that request. */
    warm(paths: readonly string[]): void {
      for (const path of paths) entry(path).catch(() => undefined);
    },
  };
}
