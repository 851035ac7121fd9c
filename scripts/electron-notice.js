// Runs after `npm install` / `npm ci`: says whether the desktop app can run here. Electron is an
// optional dependency: where its binary cannot be downloaded (from GitHub), npm drops it quietly,
// and everything but the desktop app works without it.
import { existsSync } from 'node:fs';

const here = (path) => new URL(`../node_modules/electron/${path}`, import.meta.url);

if (!existsSync(here('package.json'))) {
  console.log(
    'Hookport: Electron did not install (its binary could not be downloaded). The relay, its UI and ' +
      '`hookport` work without it. For the desktop app, run `npm install` where GitHub is reachable.',
  );
} else if (!existsSync(here('path.txt'))) {
  console.log(
    "Hookport: Electron's binary was not downloaded (ELECTRON_SKIP_BINARY_DOWNLOAD). The desktop " +
      'app needs it: `node node_modules/electron/install.js` fetches it.',
  );
}
