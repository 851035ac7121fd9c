// Starts a worker thread's TypeScript entry from the sources (vitest, `node --import tsx src/…`).
// Node 20 does not carry the main thread's module loader into worker threads, so the thread runs
// its entry bundled by esbuild (a devDependency) into one ES module, packages left to Node.
// Registering tsx in every thread instead cost each test relay's start 1–3 s (a loader thread,
// then every module resolved and loaded through it); the bundle loads in a few milliseconds.
// It is cached under node_modules/.cache and rebuilt when a source it was built from changed.
// Built code (out/) starts its worker's JavaScript directly and never loads this file.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const entry = fileURLToPath(process.argv.at(-1));
const key = createHash('sha256').update(entry).digest('hex').slice(0, 16);
const cacheDir = join(root, 'node_modules/.cache/ts-worker');
const bundle = join(cacheDir, `${key}.mjs`);
const manifest = join(cacheDir, `${key}.json`);

/** The bundle, if every source it was built from is unchanged since. */
function fresh() {
  try {
    const { inputs } = JSON.parse(readFileSync(manifest, 'utf8'));
    for (const [file, mtimeMs] of Object.entries(inputs)) {
      if (statSync(file).mtimeMs !== mtimeMs) return false;
    }
    return true;
  } catch {
    return false;
  }
}

async function rebuild() {
  const { build } = await import('esbuild');
  const built = await build({
    absWorkingDir: root,
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: 'inline',
    metafile: true,
    write: false,
    logLevel: 'silent',
  });
  const inputs = {};
  for (const input of Object.keys(built.metafile.inputs)) {
    const file = resolve(root, input);
    inputs[file] = statSync(file).mtimeMs;
  }
  mkdirSync(cacheDir, { recursive: true });
  // Threads of other test workers may build at once: each writes its own file, then renames it.
  const tmp = `${bundle}.${process.pid}.${Date.now()}`;
  writeFileSync(tmp, built.outputFiles[0].contents);
  renameSync(tmp, bundle);
  writeFileSync(`${tmp}.json`, JSON.stringify({ inputs }));
  renameSync(`${tmp}.json`, manifest);
}

if (!fresh()) await rebuild();
await import(pathToFileURL(bundle).href);
