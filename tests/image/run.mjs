#!/usr/bin/env node
// `npm run test:image`: the app image rehearsed in Debian 13 roots (scripts/image/rehearse.mjs),
// then tests/image/*.test.ts against it. The tests run in a network namespace of their own, where
// the loopback also holds the addresses of Home Assistant's hassio network: the Supervisor (and
// ingress proxy) at 172.30.32.2, the app at 172.30.33.2. There the app listens on its own port
// 3000 as in a container, and nothing on the host's network is touched. Needs root, debootstrap,
// apparmor_parser (Debian package apparmor), unshare and ip.
//
// `--arch=aarch64` (npm run test:image:aarch64) plays the aarch64 image instead: arm64 roots, Node
// and native modules, run under qemu-user, which it registers with binfmt_misc for the run and
// unregisters after (binfmt.mjs). The same tests run in either lane; rehearsal.json says which.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { archArgument, newWorkspace, rehearse, REPO, sweepWorkspaces, withEmulation, withLock } from '../../scripts/image/rehearse.mjs';
import { removeRoot } from '../../scripts/image/mounts.mjs';

const SUPERVISOR_ADDRESS = '172.30.32.2';
const APP_ADDRESS = '172.30.33.2';

function refuse(message) {
  process.stderr.write(`[image] ${message}\n`);
  process.exit(1);
}

let arch;
let vitestArgs;
try {
  ({ arch, rest: vitestArgs } = archArgument(process.argv.slice(2)));
} catch (err) {
  refuse(err.message);
}
if (process.getuid?.() !== 0) refuse('npm run test:image needs root (debootstrap, chroot, mount, a network namespace); CI runs as root');
const missing = ['debootstrap', 'apparmor_parser', 'unshare', 'ip', 'chroot'].filter((t) => spawnSync('sh', ['-c', `command -v ${t}`]).status !== 0);
if (missing.length) refuse(`npm run test:image needs ${missing.join(', ')} (apt-get install debootstrap apparmor iproute2 util-linux)`);
// An emulated lane also needs qemu-user-static's binfmt_misc registration: binfmt.mjs says so when it is missing.

let status = 1;
try {
  await withEmulation(arch, async (emulator) => {
    let workspace;
    try {
      workspace = await withLock('image-rehearsal', async () => {
        sweepWorkspaces();
        const ws = newWorkspace();
        await rehearse({ workspace: ws, arch, emulator });
        return ws;
      });
      const vitest = join(REPO, 'node_modules', 'vitest', 'vitest.mjs');
      const net = `ip link set lo up && ip addr add ${SUPERVISOR_ADDRESS}/32 dev lo && ip addr add ${APP_ADDRESS}/32 dev lo && exec "$@"`;
      status = await new Promise((resolve) => {
        const child = spawn(
          'unshare',
          ['--net', '--', 'sh', '-c', net, 'sh', process.execPath, vitest, 'run', '-c', join(REPO, 'vitest.image.config.ts'), ...vitestArgs],
          {
            cwd: REPO,
            stdio: 'inherit',
            env: {
              ...process.env,
              IMAGE_REHEARSAL: join(workspace, 'rehearsal.json'),
              IMAGE_SUPERVISOR_ADDRESS: SUPERVISOR_ADDRESS,
              IMAGE_APP_ADDRESS: APP_ADDRESS,
            },
          },
        );
        child.on('exit', (code) => resolve(code ?? 1));
      });
    } finally {
      if (workspace && existsSync(workspace) && !process.env.KEEP_IMAGE_ROOT) {
        for (const name of readdirSync(workspace)) removeRoot(join(workspace, name));
        removeRoot(workspace);
      }
    }
  });
} catch (err) {
  status = 1;
  process.stderr.write(`[image] ${err instanceof Error ? err.message : String(err)}\n`);
}
process.exit(status);
