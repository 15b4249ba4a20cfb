// Whether a uid may create a user namespace, which Chromium's own sandbox needs when it runs
// without a setuid helper (Debian's Chromium has none): runs `unshare --user true` as that uid.
import { execFile } from 'node:child_process';
import { childEnvironment } from './child-environment.js';

const UNSHARE = '/usr/bin/unshare';

export type ProbeResult = { ok: true } | { ok: false; reason: string };

/** Never rejects: a missing `unshare` or any failure is a reason. `user` null: our own uid. */
export function probeUserNamespaces(
  user: { uid: number; gid: number } | null,
  timeoutMs = 5000,
): Promise<ProbeResult> {
  return new Promise((resolve) => {
    execFile(
      UNSHARE,
      ['--user', '/bin/true'],
      {
        env: childEnvironment({}),
        timeout: timeoutMs,
        ...(user ? { uid: user.uid, gid: user.gid } : {}),
      },
      (error, _stdout, stderr) => {
        if (!error) return resolve({ ok: true });
        const detail = String(stderr).trim() || error.message;
        resolve({
          ok: false,
          reason: `unprivileged user namespaces are not available (${UNSHARE} --user: ${detail})`,
        });
      },
    );
  });
}
