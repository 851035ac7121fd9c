/** Thrown for a wrong command line: printed with the usage, exit code 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE = `Usage:
  hookport serve [--data-dir D] [--ingress-host H] [--ingress-port P]
                 [--admin-port Q] [--public-url URL] [--definitions DIR] [--trust-proxy]
                 [--database postgres://USER:PASSWORD@HOST:5432/DB]
                 [--tunnel cloudflared|ngrok|tailscale|ssh:DEST|command:CMD|none]
                 [--tunnel-domain D]
  hookport send <ingress-url> --body FILE [--secret S --scheme NAME] [--id ID]
                [--header K:V]... [--timestamp SECONDS]
                [--hmac-header NAME --hmac-encoding hex|base64 --hmac-prefix P]
  hookport replay <delivery-id>           [--admin-url URL] [--data-dir D]
  hookport forward <webhook name or uid> --to URL [--since ID | --from-now] [--no-sign]
                   [--allow-remote-signing] [--admin-url URL] [--data-dir D]
  hookport apply <dir> [--dry-run]        [--admin-url URL] [--data-dir D] [--factory F]
  hookport test-filter --filter FILE --payload FILE [--json]
  hookport mcp                            [--admin-url URL] [--data-dir D]
  hookport link <webhook> <kind>:<target> --token-secret NAME [--api-base-url URL]
                [--no-keep-pointed] [--no-recover] | --check | --remove  [--admin-url URL]
  hookport recover <webhook> [--since DURATION|ISO] [--dry-run] [--admin-url URL]
  hookport --version
`;

export function parsePort(value: string | undefined, flag: string, fallback: number): number {
  if (value === undefined) return fallback;
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65_535)
    throw new UsageError(`${flag} must be a port number (0–65535), not "${value}"`);
  return port;
}
