/** A hash route (`#/webhooks/wh_…`) as its parts; no React, so the boot script can use it. */
export function routeOfHash(hash: string): string[] {
  return hash
    .replace(/^#\/?/, '')
    .split('/')
    .filter((part) => part !== '')
    .map((part) => decodeURIComponent(part));
}
