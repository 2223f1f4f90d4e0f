#!/usr/bin/env node
// `npm run test:image`: the app image rehearsed in Debian 13 roots (scripts/image/rehearse.mjs),
// then tests/image/*.test.ts against it. The tests run in a network namespace of their own, where
// the loopback also holds the addresses of Home Assistant's hassio network: the Supervisor (and
// ingress proxy) at 172.30.32.2, the app at 172.30.33.2. There the app listens on its own port
// 3000 as in a container, and nothing on the host's network is touched. Needs root, debootstrap,
// apparmor_parser (Debian package apparmor), unshare and ip.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { newWorkspace, rehearse, REPO, sweepWorkspaces, withLock } from '../../scripts/image/rehearse.mjs';
import { removeRoot } from '../../scripts/image/mounts.mjs';

const SUPERVISOR_ADDRESS = '172.30.32.2';
const APP_ADDRESS = '172.30.33.2';

function refuse(message) {
  process.stderr.write(`[image] ${message}\n`);
  process.exit(1);
}

if (process.getuid?.() !== 0) refuse('npm run test:image needs root (debootstrap, chroot, mount, a network namespace); CI runs as root');
const missing = ['debootstrap', 'apparmor_parser', 'unshare', 'ip', 'chroot'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length) refuse(`npm run test:image needs ${missing.join(', ')} (apt-get install debootstrap apparmor iproute2 util-linux)`);

let workspace;
let status = 1;
try {
  workspace = await withLock('image-rehearsal', async () => {
    sweepWorkspaces();
    const ws = newWorkspace();
    await rehearse({ workspace: ws });
    return ws;
  });
  const vitest = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
  const net = `ip link set lo up && ip addr add ${SUPERVISOR_ADDRESS}/32 dev lo && ip addr add ${APP_ADDRESS}/32 dev lo && exec "$@"`;
  status = await new Promise((resolve) => {
    const child = spawn('unshare', ['--net', '--', 'sh', '-c', net, 'sh', process.execPath, vitest, 'run', '-c', join(REPO, 'vitest.image.config.ts'), ...process.argv.slice(2)], {
      cwd: REPO,
      stdio: 'inherit',
      env: { ...process.env, IMAGE_REHEARSAL: join(workspace, 'rehearsal.json'), IMAGE_SUPERVISOR_ADDRESS: SUPERVISOR_ADDRESS, IMAGE_APP_ADDRESS: APP_ADDRESS },
    });
    child.on('exit', (code) => resolve(code ?? 1));
  });
} catch (err) {
  process.stderr.write(`[image] ${err instanceof Error ? err.message : String(err)}\n`);
} finally {
  if (workspace && existsSync(workspace) && !process.env.KEEP_IMAGE_ROOT) {
    for (const name of readdirSync(workspace)) removeRoot(join(workspace, name));
    removeRoot(workspace);
  }
}
process.exit(status);
