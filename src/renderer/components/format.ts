import { MAX_BODY_BYTES } from '../../shared/limits.js';

// Made once: toLocaleString builds a formatter per call, a millisecond each on a busy machine,
// and the filter lab's heading and chips show counts on every key typed in the filter editor.
const COUNT_FORMAT = new Intl.NumberFormat('en-US');

/** 262,145: English digit grouping, as every other word of the UI is English. */
export const formatCount = (count: number): string => COUNT_FORMAT.format(count);

export const isOverBodyLimit = (bytes: number): boolean => bytes > MAX_BODY_BYTES;

/**
 * 1.2 KB, 256 KB, 87 B: what a delivery's size reads as in lists. A body just over the limit is
 * written in exact bytes (262,145 B): rounded, it would read "256 KB", as if within the limit.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (isOverBodyLimit(bytes) && bytes < 1024 * 1024) return `${formatCount(bytes)} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(bytes < 10 * 1024 ? 1 : 0)} KB`;
  return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}

// Made once: toLocaleTimeString builds a formatter per call, which made lists of a few hundred
// times cost tens of milliseconds on every render (a key typed in the filter editor).
const TIME_FORMAT = new Intl.DateTimeFormat(undefined, {
  hour: 'numeric',
  minute: 'numeric',
  second: 'numeric',
  hour12: false,
});
const DAY_FORMAT = new Intl.DateTimeFormat(undefined, { month: 'short', day: 'numeric' });

/** "just now", "2 min ago", "3 h ago", "4 days ago". */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - Date.parse(iso)) / 1000));
  if (seconds < 45) return 'just now';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} min ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 48) return `${hours} h ago`;
  return `${Math.round(hours / 24)} days ago`;
}

export function formatDuration(startIso: string | null, endIso: string | null): string {
  if (!startIso) return '—';
  const ms = (endIso ? Date.parse(endIso) : Date.now()) - Date.parse(startIso);
  if (ms < 1000) return `${ms} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

/** "0.21 %", "< 0.01 %", "12 %". */
export function formatShare(part: number, whole: number): string {
  if (whole === 0 || part === 0) return '0 %';
  const share = (part / whole) * 100;
  if (share < 0.01) return '< 0.01 %';
  return `${share < 1 ? share.toFixed(2) : share < 10 ? share.toFixed(1) : share.toFixed(0)} %`;
}

/** 12:03:41 today, or "Nov 21 12:03:41" on another day. */
export function formatTime(iso: string, now = new Date()): string {
  const date = new Date(iso);
  const time = TIME_FORMAT.format(date);
  if (date.toDateString() === now.toDateString()) return time;
  return `${DAY_FORMAT.format(date)} ${time}`;
}
