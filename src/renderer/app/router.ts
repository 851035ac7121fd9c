import { useEffect, useState } from 'react';
import { routeOfHash } from '../boot/route-of-hash.js';

/** Hash routes (`#/webhooks/wh_…`) work the same over HTTP and the desktop's app:// protocol. */
export type Route = string[];

export function currentRoute(): Route {
  return routeOfHash(window.location.hash);
}

export function routeHref(...parts: string[]): string {
  return `#/${parts.map((part) => encodeURIComponent(part)).join('/')}`;
}

export function navigate(...parts: string[]): void {
  window.location.hash = routeHref(...parts);
}

export function useRoute(): Route {
  const [route, setRoute] = useState(currentRoute);
  useEffect(() => {
    const update = (): void => setRoute(currentRoute());
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return route;
}
