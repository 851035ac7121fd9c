import { useEffect, useState, type RefObject } from 'react';

/** Where `element` starts in its scroller's content, in pixels (the scroller's scroll offset aside). */
function topIn(element: HTMLElement, scroller: HTMLElement): number {
  return Math.round(
    element.getBoundingClientRect().top - scroller.getBoundingClientRect().top + scroller.scrollTop,
  );
}

/**
 * How far down the page's scroll element a list starts: a virtualizer that uses the page's scroll
 * needs it as its scroll margin. Measured when the list appears and whenever the page's content
 * or the list changes size (a note appearing above the list moves it down).
 */
export function useListTop(
  list: RefObject<HTMLElement | null>,
  scroller: () => HTMLElement | null,
  present: boolean,
): number {
  const [top, setTop] = useState(0);
  useEffect(() => {
    const element = list.current;
    const page = scroller();
    const content = page?.firstElementChild;
    if (!present || !element || !page || !content) return;
    const observer = new ResizeObserver(() => setTop(topIn(element, page)));
    observer.observe(content);
    observer.observe(element);
    return () => observer.disconnect();
    // The scroller is the page's and stays while the list is there.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [present]);
  return top;
}
