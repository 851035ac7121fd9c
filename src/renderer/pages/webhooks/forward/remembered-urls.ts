import { useState } from 'react';

const KEY = 'hookport.forward-urls';
const MAX = 8;

function read(): string[] {
  try {
    const value: unknown = JSON.parse(localStorage.getItem(KEY) ?? '[]');
    return Array.isArray(value) ? value.filter((u): u is string => typeof u === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The handler URLs a tester sent to, most recent first, kept in this browser (or this desktop
 * app) only: they are the tester's, not the relay's, and are never sent anywhere but as targets.
 */
export function useRememberedUrls(): {
  urls: string[];
  remember: (url: string) => void;
  forget: (url: string) => void;
} {
  const [urls, setUrls] = useState(read);
  const save = (next: string[]): void => {
    try {
      localStorage.setItem(KEY, JSON.stringify(next));
    } catch {
      // Storage full or off: the list lives for this page only.
    }
    setUrls(next);
  };
  return {
    urls,
    remember: (url) => save([url, ...read().filter((u) => u !== url)].slice(0, MAX)),
    forget: (url) => save(read().filter((u) => u !== url)),
  };
}
