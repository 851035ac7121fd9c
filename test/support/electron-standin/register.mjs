// Loaded with `node --import tsx --import <this>`: routes `import 'electron'` to the stand-in.
import { register } from 'node:module';

register('./hooks.mjs', import.meta.url);
