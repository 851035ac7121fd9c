/**
 * What the UI suites share (ui.ts, ui-first-hour.ts): timing inside the page to an animation
 * frame, the first row of Recent deliveries, medians, and a table whose every figure stands
 * beside the machine's load average while it was taken (the machine is shared: a figure at load
 * 20 is not one at load 1).
 */
import { loadavg } from 'node:os';
import type { Page } from 'playwright-core';

export const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** One sample: a time and the 1-minute load average when it was taken. */
export interface Sample {
  ms: number;
  load: number;
}

export const sample = (ms: number): Sample => ({ ms, load: loadavg()[0]! });

/**
 * Runs in the page until `condition` holds in an animation frame; answers performance.now() then
 * (from navigation start). Page code is text: these files are type-checked for Node (no DOM), and
 * Runtime.evaluate is not bound by the UI's CSP, which forbids the eval waitForFunction needs.
 */
export function untilFrame(page: Page, condition: string): Promise<number> {
  return page.evaluate<number>(`(async () => {
    for (;;) {
      await new Promise(requestAnimationFrame);
      if (${condition}) return performance.now();
    }
  })()`);
}

/** Navigation start → the frame in which the first row of a webhook's Recent deliveries exists. */
export async function firstRowMs(page: Page, adminUrl: string, uid: string): Promise<number> {
  await page.goto('about:blank');
  // Polling starts as soon as the document exists, so the frame measured is the row's own.
  await page.goto(`${adminUrl}/#/webhooks/${uid}`, { waitUntil: 'commit' });
  return untilFrame(
    page,
    `document.querySelector('[aria-label="Deliveries, newest first"] [data-delivery-id]')`,
  );
}

export interface Measure {
  what: string;
  baseline: readonly Sample[];
  measured: readonly Sample[];
  target: string;
  /** How a figure prints (default: milliseconds). */
  unit?: (value: number) => string;
}

const ms = (value: number): string => `${value.toFixed(0)} ms`;

/** The suite's table: medians, their ratio, the target, and the median load average of each. */
export function printMeasures(measures: readonly Measure[]): void {
  console.log('| measure | baseline | measured | ratio | target | load (1 min) |');
  console.log('| --- | --- | --- | --- | --- | --- |');
  for (const { what, baseline, measured, target, unit = ms } of measures) {
    const base = median(baseline.map((s) => s.ms));
    const value = median(measured.map((s) => s.ms));
    const load = median([...baseline, ...measured].map((s) => s.load));
    const ratio = base === 0 ? '' : (value / base).toFixed(2);
    console.log(
      `| ${what} | ${unit(base)} | ${unit(value)} | ${ratio} | ${target} | ${load.toFixed(1)} |`,
    );
  }
}
