/** Version 6 on PostgreSQL: SQLite's 006-run-processes (where a command run's program is). */
export const runProcesses = `
  ALTER TABLE runs ADD COLUMN process_group INTEGER;
  ALTER TABLE runs ADD COLUMN process_started TEXT;
`;
