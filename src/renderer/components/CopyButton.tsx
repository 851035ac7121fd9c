import { useState, type ReactNode } from 'react';

/** Copies `value`; says so for a moment (and says when the clipboard refused). */
export function CopyButton({
  value,
  label,
  text = 'Copy',
  className = 'copy-button',
}: {
  value: string;
  /** What is copied, for screen readers and the tooltip: "Copy ingress URL". */
  label: string;
  /** What the button reads while idle. */
  text?: string;
  className?: string;
}): ReactNode {
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle');
  const copy = async (): Promise<void> => {
    try {
      await navigator.clipboard.writeText(value);
      setState('copied');
    } catch {
      setState('failed');
    }
    setTimeout(() => setState('idle'), 1500);
  };
  return (
    <button
      type="button"
      className={className}
      aria-label={label}
      title={label}
      onClick={() => void copy()}
    >
      {state === 'copied' ? 'Copied' : state === 'failed' ? 'Copy failed' : text}
    </button>
  );
}
