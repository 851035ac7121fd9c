/** What the relay needs of Electron's powerMonitor (the core never imports electron). */
export interface PowerEvents {
  on(event: 'suspend' | 'resume', listener: () => void): unknown;
  off(event: 'suspend' | 'resume', listener: () => void): unknown;
}

/**
 * Electron's powerMonitor says when the machine suspends and resumes (PRODUCT §20): on resume the
 * relay is told at once how long it slept, before its one-second timer would notice.
 */
export function reportResume(
  powerMonitor: PowerEvents,
  resumed: (at: number, sleptSeconds: number) => void,
  now: () => number = Date.now,
): () => void {
  let suspendedAt: number | null = null;
  const onSuspend = (): void => {
    suspendedAt = now();
  };
  const onResume = (): void => {
    const at = now();
    resumed(at, suspendedAt === null ? 0 : Math.round((at - suspendedAt) / 1000));
    suspendedAt = null;
  };
  powerMonitor.on('suspend', onSuspend);
  powerMonitor.on('resume', onResume);
  return () => {
    powerMonitor.off('suspend', onSuspend);
    powerMonitor.off('resume', onResume);
  };
}
