/**
 * A file of the relay's own beside its SQLite file, named after it: `hookport.sqlite` with
 * `search` → `hookport.search.sqlite` (each with its own -wal and -shm).
 */
export function fileBeside(file: string, part: string): string {
  const dot = file.lastIndexOf('.');
  const slash = Math.max(file.lastIndexOf('/'), file.lastIndexOf('\\'));
  return dot > slash ? `${file.slice(0, dot)}.${part}${file.slice(dot)}` : `${file}.${part}`;
}
