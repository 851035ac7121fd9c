/** Why a run that was running when its relay went away is `interrupted` (never re-run automatically). */
export const INTERRUPTED_BY_CRASH =
  'the relay stopped while this run was running; it is not re-run automatically (Re-run it by hand)';

/** The same, found by another relay of a shared store once the run's lease ended. */
export const INTERRUPTED_BY_LOST_RELAY =
  'the relay running this run stopped (its lease ended); it is not re-run automatically (Re-run it by hand)';

/** A run whose lease ended, whose program still ran on the machine of the relay that found it. */
export const lostRelayProgramStopped = (group: number): string =>
  `the relay running this run stopped (its lease ended); its program (process group ${group}) was still running on this machine and was stopped; it is not re-run automatically (Re-run it by hand)`;
export const INTERRUPTED_BY_STOP =
  'the relay was shut down while this run was running; it is not re-run automatically (Re-run it by hand)';
