import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

const AXE_SOURCE = readFileSync(
  createRequire(import.meta.url).resolve('axe-core/axe.min.js'),
  'utf8',
);

/**
 * Loads axe-core into the page's document unless it is there already: compiling its half a
 * megabyte took longer than a check (0.25–0.5 s against 0.1–0.2 s), and a hash route keeps the
 * document, so a page checked screen after screen loads it once.
 */
export async function loadAxe(page: Page): Promise<void> {
  if (await page.evaluate<boolean>(`typeof axe === 'undefined'`)) await page.evaluate(AXE_SOURCE);
}

/**
 * Waits for the page's finite animations and transitions: a colour scheme just switched fades
 * its colours, and contrast measured halfway is neither scheme's (a row's arrival, too).
 */
async function settled(page: Page): Promise<void> {
  await page.evaluate(`Promise.all(
    document
      .getAnimations()
      .filter((a) => a.effect && a.effect.getComputedTiming().endTime !== Infinity)
      .map((a) => a.finished.catch(() => undefined)),
  )`);
}

/**
 * axe-core's WCAG 2.1 A/AA checks (contrast among them) on what is on screen now, serious and
 * critical only: each as `what: rule targets`, so a failure names the screen it was found on.
 */
export async function axeProblems(page: Page, what: string): Promise<string[]> {
  await loadAxe(page);
  await settled(page);
  const found = await page.evaluate<
    Array<{ id: string; impact: string | null; nodes: Array<{ target: string[] }> }>
  >(
    `axe.run(document, { runOnly: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] }).then((r) => r.violations)`,
  );
  return found
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${what}: ${v.id} ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}
