import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import type { Plugin } from 'vite';
import { compression, defineAlgorithm } from 'vite-plugin-compression2';
import { constants } from 'node:zlib';

// Building needs Electron's version, not Electron. It is an optional dependency (its install
// fetches a binary from GitHub's downloads, which some machines cannot reach, and the relay does
// not need it); where it did not install, the major version package.json asks for stands in.
const electronPackage = resolve(import.meta.dirname, 'node_modules/electron/package.json');
if (!process.env.ELECTRON_MAJOR_VER && !existsSync(electronPackage)) {
  const manifest = JSON.parse(
    readFileSync(resolve(import.meta.dirname, 'package.json'), 'utf8'),
  ) as {
    optionalDependencies: { electron: string };
  };
  process.env.ELECTRON_MAJOR_VER = /\d+/.exec(manifest.optionalDependencies.electron)![0];
}

/**
 * The UI's chunks: the boot script (src/renderer/boot, tiny), one page each, and one `app` chunk
 * for everything else (React, zod, the contract, the shell, shared components). Left to itself
 * the bundler cuts a dozen sub-kilobyte shared chunks; over HTTP/1.1's six connections each is a
 * request the first screen's API reads queue behind. The boot imports the bridge's name only.
 */
const inAppChunk = (id: string): boolean =>
  !id.startsWith('\0') && // Vite's own helpers, which the boot script uses too
  !id.endsWith('.html') &&
  !/[\\/]src[\\/]renderer[\\/](boot|pages)[\\/]/.test(id) &&
  !/[\\/]shared[\\/]bridge\.ts$/.test(id);

/**
 * A modulepreload hint for the `app` chunk in index.html: the browser fetches the largest script
 * while it still waits for the boot script, instead of one round trip after it.
 */
function preloadAppChunk(): Plugin {
  return {
    name: 'hookport-preload-app-chunk',
    transformIndexHtml: {
      order: 'post',
      handler(_html, context) {
        const app = Object.values(context.bundle ?? {}).find(
          (output) => output.type === 'chunk' && output.name === 'app',
        );
        if (!app) return [];
        return [
          {
            tag: 'link',
            attrs: { rel: 'modulepreload', crossorigin: true, href: `./${app.fileName}` },
            injectTo: 'head',
          },
        ];
      },
    },
  };
}

// One build for three targets: the Node side (Electron main + the `hookport` CLI share the core,
// which starts the writer thread's script),
// the sandboxed preload (CommonJS, as Electron's sandbox requires), and the React renderer.
export default defineConfig({
  main: {
    build: {
      outDir: 'out/main',
      rollupOptions: {
        input: {
          index: resolve(import.meta.dirname, 'src/main/electron/main.ts'),
          cli: resolve(import.meta.dirname, 'src/main/cli/main.ts'),
          // The SQLite writer thread's script, started from whichever bundle holds the core.
          'writer-thread': resolve(import.meta.dirname, 'src/main/store/sqlite/writer-thread.ts'),
          // The search index's thread, started by the writer thread.
          'index-thread': resolve(import.meta.dirname, 'src/main/store/sqlite/index-thread.ts'),
          // The delivery log's pages and totals, read off the main thread.
          'read-thread': resolve(import.meta.dirname, 'src/main/store/sqlite/read-thread.ts'),
        },
        // Shared chunks sit beside the entries, so the core finds writer-thread.js beside itself.
        output: { chunkFileNames: '[name]-[hash].js' },
      },
    },
  },
  preload: {
    build: {
      outDir: 'out/preload',
      externalizeDeps: false,
      rollupOptions: {
        input: { index: resolve(import.meta.dirname, 'src/preload/index.ts') },
        output: { format: 'cjs', entryFileNames: '[name].cjs' },
      },
    },
  },
  renderer: {
    root: 'src/renderer',
    plugins: [
      react(),
      preloadAppChunk(),
      // Each text asset also as `.br` and `.gz` beside it, at the highest levels, which the relay
      // serves as they are: compressing the UI's main script at a relay's start took it 1-3 s of
      // CPU, and a browser opened in those seconds waited that long for its first screen.
      compression({
        include: /\.(js|css|html|svg|json)$/,
        threshold: 1024,
        logLevel: 'silent',
        algorithms: [
          defineAlgorithm('brotliCompress', {
            params: { [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY },
          }),
          defineAlgorithm('gzip', { level: 9 }),
        ],
      }),
    ],
    build: {
      outDir: resolve(import.meta.dirname, 'out/renderer'),
      // electron-vite leaves bundles unminified; the UI is also served to a browser tab.
      minify: true,
      rollupOptions: {
        input: resolve(import.meta.dirname, 'src/renderer/index.html'),
        // The boot script's own modules stay in it: the app's modules import some of them.
        output: {
          codeSplitting: {
            groups: [{ name: 'app', test: inAppChunk, includeDependenciesRecursively: false }],
          },
        },
        // Else the bundler merges the app's chunk into the boot script, which imports nothing.
        experimental: { chunkOptimization: { mergeCommonChunks: false } },
        // The compression above is most of the build's time, by design: no warning that says so.
        checks: { bundlerTimings: false },
      },
    },
  },
});
