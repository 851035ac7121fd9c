import { createServer } from 'node:http';
import type { TestProject } from 'vitest/node';
import { startPostgresCluster, type PostgresCluster } from './postgres-cluster.js';

declare module 'vitest' {
  export interface ProvidedContext {
    /** Where a test file asks for the run's shared PostgreSQL cluster (test/support/postgres-databases.ts). */
    postgresClusterUrl: string;
  }
}

/**
 * Vitest's global setup: one private PostgreSQL cluster for the whole run instead of one per test
 * file (each start is an initdb). It starts when the first file asks for it, so a run without
 * PostgreSQL tests never needs the server; it is stopped and its dir removed when the run ends.
 * Tests that crash or restart a server still start their own.
 */
export default async function sharedPostgres(project: TestProject): Promise<() => Promise<void>> {
  let cluster: Promise<PostgresCluster> | null = null;
  const server = createServer((_request, response) => {
    cluster ??= startPostgresCluster();
    cluster.then(
      (running) =>
        response
          .writeHead(200, { 'content-type': 'application/json' })
          .end(JSON.stringify({ adminUrl: running.urlFor('postgres') })),
      (error: unknown) => {
        cluster = null;
        response.writeHead(500).end(error instanceof Error ? error.message : String(error));
      },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  project.provide('postgresClusterUrl', `http://127.0.0.1:${port}/`);
  return async () => {
    server.close();
    const running = cluster;
    cluster = null;
    if (running) await (await running.catch(() => null))?.stop();
  };
}
