import type { Locator, Page } from 'playwright-core';

export type Box = { x: number; y: number; width: number; height: number };

export const boxOf = async (locator: Locator): Promise<Box> => {
  const box = await locator.boundingBox();
  if (!box) throw new Error(`${locator.toString()} is not on screen`);
  return box;
};

/**
 * How many colours a region of the page shows as drawn, whatever is painted over it (a shadow
 * is not hit-tested, so `elementFromPoint` cannot see it): text shows many, a cover one. Decoded
 * on a blank page of the same browser.
 */
export async function coloursIn(page: Page, clip: Box): Promise<number> {
  const png = (await page.screenshot({ clip })).toString('base64');
  const blank = await page.context().newPage();
  try {
    return await blank.evaluate<number>(`(async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,${png}';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const g = canvas.getContext('2d');
      g.drawImage(img, 0, 0);
      const d = g.getImageData(0, 0, img.width, img.height).data;
      const seen = new Set();
      for (let i = 0; i < d.length; i += 4) seen.add((d[i] << 16) | (d[i + 1] << 8) | d[i + 2]);
      return seen.size;
    })()`);
  } finally {
    await blank.close();
  }
}

/** Where the status line starts: what ends below it is hidden under it. */
export const statusLineTop = async (page: Page): Promise<number> =>
  (await boxOf(page.getByRole('contentinfo', { name: 'Relay status' }))).y;

/**
 * Every visible header and cell of each table, and each delivery row's parts: inside its table,
 * inside the window, its header's text not clipped. The names of whatever is cut off.
 */
export function cutOffParts(page: Page): Promise<string[]> {
  return page.evaluate<string[]>(`(() => {
    const width = document.documentElement.clientWidth;
    const cut = [];
    for (const table of document.querySelectorAll('table.table')) {
      const frame = table.getBoundingClientRect();
      if (frame.width === 0) continue;
      let scroller = table.parentElement;
      while (scroller && getComputedStyle(scroller).overflowX === 'visible') scroller = scroller.parentElement;
      const clip = scroller ? scroller.getBoundingClientRect() : frame;
      for (const cell of table.querySelectorAll('th, td')) {
        const box = cell.getBoundingClientRect();
        if (box.width === 0) continue;
        const name = (table.className + ' ' + cell.tagName + ' ' + cell.textContent).slice(0, 80);
        if (box.right > frame.right + 0.5 || box.left < frame.left - 0.5) cut.push(name + ': outside its table');
        if (box.right > clip.right + 0.5) cut.push(name + ': cut by a scroll box');
        if (box.right > width + 0.5) cut.push(name + ': outside the window');
        if (cell.tagName === 'TH' && cell.scrollWidth > cell.clientWidth + 1) cut.push(name + ': clipped');
      }
    }
    for (const part of document.querySelectorAll('.delivery-row > *')) {
      const box = part.getBoundingClientRect();
      if (box.width === 0) continue;
      if (box.left < 0 || box.right > width + 0.5) cut.push('delivery row ' + part.className + ': outside the window');
    }
    if (document.documentElement.scrollWidth > width) cut.push('the page scrolls sideways');
    return cut;
  })()`);
}
