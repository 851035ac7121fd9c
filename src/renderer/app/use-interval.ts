import { useEffect, useRef } from 'react';

/** Calls `tick` every `ms` while the component is mounted (the latest closure). */
export function useInterval(tick: () => void, ms: number): void {
  const latest = useRef(tick);
  useEffect(() => {
    latest.current = tick;
  });
  useEffect(() => {
    const timer = setInterval(() => latest.current(), ms);
    return () => clearInterval(timer);
  }, [ms]);
}
