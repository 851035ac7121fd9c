import { useLayoutEffect, useState, type RefObject } from 'react';

/**
 * Below this list width (in rem) a row's note gets too little of one line to be read ("reason:
 * b…"): the label, ID, size and time take about 41rem of it.
 */
const MIN_ONE_LINE_REM = 57;

/**
 * Whether rows put their note on a line of its own, from the width of `ref` (an element that is
 * always mounted and as wide as the list).
 */
export function useNoteBelow(ref: RefObject<HTMLElement | null>): boolean {
  const [below, setBelow] = useState(false);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = (): void => {
      const rem = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      setBelow(element.clientWidth < MIN_ONE_LINE_REM * rem);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, [ref]);
  return below;
}
