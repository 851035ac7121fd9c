/**
 * Version 14 on PostgreSQL: the payload's search text (version 8's `hookport_payload_text`) is
 * PARALLEL UNSAFE. Its EXCEPTION block starts a subtransaction, which PostgreSQL refuses in any
 * parallel operation, the leader's part included ("cannot start subtransactions during a parallel
 * operation"): version 8 marked it RESTRICTED, and once the log is large enough for the planner to
 * scan it in parallel (a week at the seed's rate, 120,000 entries in one webhook: issue 28's
 * benchmark) a search on the delivery list failed with a 500. Unsafe keeps such queries serial.
 * The GIN index on it stays as it is (the function's result does not change).
 */
export const searchTextSerial = `
  ALTER FUNCTION hookport_payload_text(BYTEA) PARALLEL UNSAFE;
`;
