#!/usr/bin/env node
// The CLI is bundled by `npm run build`; this shim only points at it.
import '../out/main/cli.js';
