#!/usr/bin/env -S MALLOC_ARENA_MAX=2 node --max-semi-space-size=2 --heap-growing-percent=100
// The CLI is bundled by `npm run build`; this shim only points at it. The malloc setting and the
// V8 flags above bound the relay's memory (README, "Memory"); package.json's start script passes
// the same ones.
import '../out/main/cli.js';
