import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { connect } from 'node:net';
import { freeLoopbackPort } from '../../src/main/tunnels/free-port.js';
import { userInfo } from 'node:os';
import { join } from 'node:path';
import { tempDir } from './relay.js';
import { waitFor } from './wait.js';

/** A real OpenSSH server (Debian's openssh-server) on a free loopback port, for `ssh -R` tests. */
export interface LoopbackSshd {
  port: number;
  /** The throwaway client key that the server accepts. */
  keyFile: string;
  user: string;
  /** `ssh` options that reach it with that key and trust its throwaway host key. */
  sshArgs: string;
  stop(): Promise<void>;
}

export const freePort = freeLoopbackPort;

const reachable = (port: number): Promise<boolean> =>
  new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

function keygen(file: string): void {
  const made = spawnSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-f', file]);
  if (made.status !== 0) throw new Error(`ssh-keygen failed: ${made.stderr.toString()}`);
}

/**
 * Starts sshd in the foreground (-D, logging to stderr with -e) with a private config, host key
 * and authorized_keys in a temp dir, listening on 127.0.0.1 only; remote forwards allowed.
 */
export async function startLoopbackSshd(): Promise<LoopbackSshd> {
  const dir = tempDir('hookport-sshd-');
  keygen(join(dir, 'host_key'));
  keygen(join(dir, 'client_key'));
  writeFileSync(join(dir, 'authorized_keys'), readFileSync(join(dir, 'client_key.pub')), {
    mode: 0o600,
  });
  const port = await freePort();
  writeFileSync(
    join(dir, 'sshd_config'),
    [
      `Port ${port}`,
      'ListenAddress 127.0.0.1',
      `HostKey ${join(dir, 'host_key')}`,
      `PidFile ${join(dir, 'sshd.pid')}`,
      `AuthorizedKeysFile ${join(dir, 'authorized_keys')}`,
      'StrictModes no',
      'UsePAM no',
      'PubkeyAuthentication yes',
      'PasswordAuthentication no',
      'KbdInteractiveAuthentication no',
      'PermitRootLogin prohibit-password',
      'AllowTcpForwarding remote',
      'GatewayPorts no',
      'PermitTTY no',
      'X11Forwarding no',
      '',
    ].join('\n'),
  );
  // sshd's privilege-separation directory (compiled in as /run/sshd on Debian).
  if (process.getuid?.() === 0) mkdirSync('/run/sshd', { recursive: true, mode: 0o755 });
  const sshd: ChildProcess = spawn('/usr/sbin/sshd', ['-D', '-e', '-f', join(dir, 'sshd_config')], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let log = '';
  sshd.stderr?.on('data', (chunk: Buffer) => (log += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => sshd.once('exit', () => resolve()));
  await waitFor(
    async () => {
      if (sshd.exitCode !== null) throw new Error(`sshd exited: ${log}`);
      return reachable(port);
    },
    'sshd to listen',
    { timeoutMs: 15_000, intervalMs: 50 },
  );
  const keyFile = join(dir, 'client_key');
  return {
    port,
    keyFile,
    user: userInfo().username,
    sshArgs: `-F /dev/null -p ${port} -i ${keyFile} -o IdentitiesOnly=yes -o StrictHostKeyChecking=no -o UserKnownHostsFile=/dev/null`,
    async stop() {
      sshd.kill('SIGTERM');
      await exited;
    },
  };
}
