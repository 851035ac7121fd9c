/** Version 3 on PostgreSQL: SQLite's 003-request-context (headers stay JSON text, byte for byte). */
export const requestContext = `
  ALTER TABLE deliveries ADD COLUMN event_type TEXT;
  CREATE INDEX deliveries_by_event_type ON deliveries (webhook_uid, event_type, id)
    WHERE event_type IS NOT NULL;
  ALTER TABLE webhooks ADD COLUMN event_type_path TEXT;

  CREATE TABLE request_contexts (
    delivery_id TEXT COLLATE "C" PRIMARY KEY,
    method TEXT NOT NULL,
    path TEXT NOT NULL,
    -- JSON array of [name, value] pairs, in the order received, names as sent.
    headers TEXT NOT NULL
  );
`;
