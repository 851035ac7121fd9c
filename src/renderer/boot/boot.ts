/**
 * The UI's entry script, a few hundred bytes: it starts the first screen's reads and its page's
 * chunk, then the app (React, the contract), all at once. Loading the app first would leave the
 * network idle while its script is parsed and run, then start the rest one round trip later.
 */
import { startEarlyFetches } from './early-fetches.js';
import { preloadPage } from './page-chunks.js';
import { routeOfHash } from './route-of-hash.js';

const route = routeOfHash(window.location.hash);
startEarlyFetches(route);
void import('../main.js');
void preloadPage(route[0]);
