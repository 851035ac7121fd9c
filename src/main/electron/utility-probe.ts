import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { app, utilityProcess } from 'electron';
import type { ProbeRunner } from '../secrets/keychain-probe.js';

/**
 * Runs the keychain probe in an Electron utility process: the packaged app has the RunAsNode fuse
 * off, so `ELECTRON_RUN_AS_NODE` cannot turn the app binary into Node, but a utility process is a
 * Node child the main process can kill. The script is written next to the app's other temp files.
 */
export const utilityProcessProbeRunner: ProbeRunner = (script, args, timeoutMs) =>
  new Promise((resolve) => {
    const file = join(app.getPath('temp'), `hookport-keychain-probe-${process.pid}.cjs`);
    writeFileSync(file, script);
    const child = utilityProcess.fork(file, args, {
      stdio: 'pipe',
      serviceName: 'Hookport keychain probe',
    });
    let stdout = '';
    let stderr = '';
    child.stdout?.on('data', (chunk: Buffer) => (stdout += chunk.toString('utf8')));
    child.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, timeoutMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve({ stdout, stderr, timedOut });
    });
  });
