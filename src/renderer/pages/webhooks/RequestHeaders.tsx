import type { ReactNode } from 'react';
import { REDACTED } from '../../../shared/credential-headers.js';

/**
 * The stored request: method, path and the headers as received (order, case, repeats kept).
 * A credential's value was never stored: it reads [redacted], marked as such.
 */
export function RequestHeaders({
  method,
  path,
  headers,
}: {
  method: string | null;
  path: string | null;
  headers: ReadonlyArray<readonly [string, string]> | null;
}): ReactNode {
  if (headers === null || method === null || path === null) {
    return (
      <p className="hint request-not-recorded">
        Not recorded: this delivery was logged before the relay kept request headers.
      </p>
    );
  }
  return (
    <div className="request-headers">
      <p className="request-line">
        <code>
          {method} {path}
        </code>
      </p>
      <table className="headers-table" aria-label="Request headers">
        <thead>
          <tr>
            <th scope="col">Header</th>
            <th scope="col">Value</th>
          </tr>
        </thead>
        <tbody>
          {headers.map(([name, value], index) => (
            <tr key={index}>
              <th scope="row">
                <code>{name}</code>
              </th>
              <td>
                {value === REDACTED ? (
                  <span
                    className="badge badge-redacted"
                    title="A credential: the relay never stores its value, only that it was sent"
                  >
                    redacted
                  </span>
                ) : (
                  <code className="header-value">{value}</code>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
