// Starts a worker thread's TypeScript entry from the sources (vitest, `node --import tsx src/…`).
// Node 20 does not carry the main thread's module loader into worker threads, so the thread
// registers tsx (a devDependency) itself before importing the entry, passed as its last argv.
// Built code (out/) starts its worker's JavaScript directly and never loads this file.
import { register } from 'tsx/esm/api';

register();
await import(process.argv.at(-1));
