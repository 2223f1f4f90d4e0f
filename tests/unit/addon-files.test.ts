// The add-on as Home Assistant's Supervisor and the add-on linter (frenck/action-addon-linter)
// read it from a store repository: config.yaml, the Dockerfile, repository.yaml, the s6 service
// files, the store images and the AppArmor profile. The rules below restate the Supervisor's
// schemas (supervisor/apps/validate.py, store/, utils/apparmor.py) and the linter's
// (config.schema.json, build.schema.json, lint.py) as of August 2026. The options' agreement with
// the settings module, and the translations of every option, are settings-agreement.test.ts's.
// Each rule is a function returning problems, so the last block can show that each one fails.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, test } from 'vitest';
import { parse } from 'yaml';
import { OLDEST_VERSION, RELEASES } from '../e2e/ha.mjs';

type Dict = Record<string, unknown>;

const root = new URL('../../', import.meta.url);
const read = (path: string) => readFileSync(new URL(path, root));
// The Supervisor and the linter read YAML with PyYAML's SafeLoader, which is YAML 1.1 (`no` is false).
const yaml = (path: string) => parse(read(path).toString('utf8'), { version: '1.1' }) as Dict;
const git = (...args: string[]) => execFileSync('git', args, { cwd: root, encoding: 'utf8' });
// What a store user gets is what is committed: the Supervisor clones the repository.
const tracked = git('ls-files', '-z').split('\0').filter(Boolean);

const isDict = (v: unknown): v is Dict => typeof v === 'object' && v !== null && !Array.isArray(v);

// ---- config.yaml ----------------------------------------------------------------------------

type Check = (v: unknown) => boolean;
const bool: Check = (v) => typeof v === 'boolean';
const str: Check = (v) => typeof v === 'string';
const int =
  (min: number, max: number): Check =>
  (v) =>
    Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
const oneOf =
  (...values: string[]): Check =>
  (v) =>
    typeof v === 'string' && values.includes(v);
const matches =
  (re: RegExp): Check =>
  (v) =>
    typeof v === 'string' && re.test(v);
const listOf =
  (item: Check): Check =>
  (v) =>
    Array.isArray(v) && v.every(item);
const dictOf =
  (key: RegExp, value: Check): Check =>
  (v) =>
    isDict(v) && Object.entries(v).every(([k, x]) => key.test(k) && value(x));
const anyOf =
  (...checks: Check[]): Check =>
  (v) =>
    checks.some((c) => c(v));
const httpUrl: Check = (v) => {
  if (typeof v !== 'string') return false;
  try {
    return ['http:', 'https:'].includes(new URL(v).protocol);
  } catch {
    return false;
  }
};

// Supported architectures (Supervisor ARCH_ALL); armhf, armv7 and i386 are deprecated since 2025.12.
const ARCHES = ['aarch64', 'amd64'];
const DEPRECATED_ARCHES = ['armhf', 'armv7', 'i386'];
const DOCKER_PORT = /^\d+(?:\/tcp|\/udp)?$/;
const port = int(1, 65535);
// Where the Supervisor and the linter differ (map types, machines, capabilities), only what both accept.
const MAP_TYPES = ['addon_config', 'addons', 'all_addon_configs', 'backup', 'config', 'data', 'homeassistant_config', 'media', 'share', 'ssl'];
const MACHINE =
  /^!?(?:generic-aarch64|generic-x86-64|intel-nuc|khadas-vim3|odroid-c2|odroid-c4|odroid-n2|odroid-xu|qemuarm|qemuarm-64|qemux86|qemux86-64|raspberrypi|raspberrypi2|raspberrypi3|raspberrypi3-64|raspberrypi4|raspberrypi4-64|tinker|yellow)$/;
const CAPABILITIES = [
  'BPF',
  'DAC_READ_SEARCH',
  'IPC_LOCK',
  'NET_ADMIN',
  'NET_RAW',
  'PERFMON',
  'SYS_ADMIN',
  'SYS_MODULE',
  'SYS_NICE',
  'SYS_PTRACE',
  'SYS_RAWIO',
  'SYS_RESOURCE',
  'SYS_TIME',
];

/** Every top-level key the Supervisor's add-on config schema takes, with the type it takes. */
const KEYS: Record<string, [Check, string]> = {
  name: [matches(/\S/), 'a non-empty string'],
  version: [str, 'a string (quote it: 1.10 is a number in YAML)'],
  slug: [str, 'a string'],
  description: [matches(/\S/), 'a non-empty string'],
  arch: [(v) => Array.isArray(v) && v.length > 0 && v.every(oneOf(...ARCHES, ...DEPRECATED_ARCHES)), `a list of ${ARCHES.join(', ')}`],
  machine: [listOf(matches(MACHINE)), 'a list of machine types'],
  url: [httpUrl, 'an http(s) URL'],
  startup: [oneOf('initialize', 'system', 'services', 'application', 'once'), 'a startup stage'],
  boot: [oneOf('auto', 'manual', 'manual_only'), 'auto, manual or manual_only'],
  init: [bool, 'a boolean'],
  stage: [oneOf('stable', 'experimental', 'deprecated'), 'stable, experimental or deprecated'],
  ports: [
    dictOf(
      DOCKER_PORT,
      anyOf(port, (v) => v === null),
    ),
    'a map of "port/tcp" to a host port or null',
  ],
  ports_description: [dictOf(DOCKER_PORT, str), 'a map of "port/tcp" to a description'],
  webui: [matches(/^(?:https?|\[PROTO:\w+\]):\/\/\[HOST\]:\[PORT:\d+\].*$/), 'a URL like http://[HOST]:[PORT:8080]/'],
  ingress: [bool, 'a boolean'],
  ingress_port: [anyOf(port, (v) => v === 0), 'a port, or 0'],
  ingress_entry: [str, 'a string'],
  ingress_stream: [bool, 'a boolean'],
  panel_icon: [matches(/^mdi:[a-z0-9-]+$/), 'an mdi: icon name'],
  panel_title: [str, 'a string'],
  panel_admin: [bool, 'a boolean'],
  homeassistant: [str, 'a Home Assistant version string'],
  host_network: [bool, 'a boolean'],
  host_pid: [bool, 'a boolean'],
  host_ipc: [bool, 'a boolean'],
  host_uts: [bool, 'a boolean'],
  host_dbus: [bool, 'a boolean'],
  devices: [listOf(str), 'a list of device paths'],
  udev: [bool, 'a boolean'],
  tmpfs: [bool, 'a boolean'],
  map: [
    anyOf(
      listOf(matches(new RegExp(`^(?:${MAP_TYPES.filter((t) => t !== 'data').join('|')})(?::(?:rw|ro))?$`))),
      listOf((v) => isDict(v) && oneOf(...MAP_TYPES)(v.type) && Object.keys(v).every((k) => ['type', 'read_only', 'path'].includes(k))),
    ),
    'a list of folder types',
  ],
  environment: [dictOf(/^\w*$/, str), 'a map of variable names to strings'],
  privileged: [listOf(oneOf(...CAPABILITIES)), 'a list of capabilities'],
  apparmor: [anyOf(bool, str), 'a boolean or a profile name'],
  full_access: [bool, 'a boolean'],
  audio: [bool, 'a boolean'],
  video: [bool, 'a boolean'],
  gpio: [bool, 'a boolean'],
  usb: [bool, 'a boolean'],
  uart: [bool, 'a boolean'],
  devicetree: [bool, 'a boolean'],
  kernel_modules: [bool, 'a boolean'],
  realtime: [bool, 'a boolean'],
  hassio_api: [bool, 'a boolean'],
  hassio_role: [oneOf('default', 'homeassistant', 'backup', 'manager', 'admin'), 'a Supervisor API role'],
  homeassistant_api: [bool, 'a boolean'],
  stdin: [bool, 'a boolean'],
  legacy: [bool, 'a boolean'],
  docker_api: [bool, 'a boolean'],
  auth_api: [bool, 'a boolean'],
  services: [listOf(matches(/^(?:mqtt|mysql):(?:provide|want|need)$/)), 'a list of service:function'],
  discovery: [listOf(matches(/\S/)), 'a list of service names'],
  backup_exclude: [listOf(str), 'a list of paths'],
  backup_pre: [str, 'a command'],
  backup_post: [str, 'a command'],
  backup: [oneOf('hot', 'cold'), 'hot or cold'],
  options: [isDict, 'a map'],
  schema: [anyOf(isDict, (v) => v === false), 'a map, or false'],
  image: [matches(/^[a-z0-9.\-_{}/:]+$/), 'an image name without tag'],
  ulimits: [
    dictOf(
      /./,
      anyOf(int(-Infinity, Infinity), (v) => isDict(v) && Number.isInteger(v.soft) && Number.isInteger(v.hard)),
    ),
    'a map of limits',
  ],
  timeout: [int(10, 300), 'seconds, 10 to 300'],
  journald: [bool, 'a boolean'],
  breaking_versions: [listOf(str), 'a list of versions'],
};
const REQUIRED = ['name', 'version', 'slug', 'description', 'arch'];
// Keys both tools still know but refuse or ignore.
const RETIRED: Record<string, string> = {
  watchdog: 'is obsolete: use the Docker HEALTHCHECK',
  advanced: 'is deprecated and ignored',
  codenotary: 'is deprecated and no longer used',
  auto_uart: 'is deprecated: use uart',
};
// A field set to its default is an error for the linter: its config schema's defaults, plus ingress_entry's from the docs.
const DEFAULTS: Dict = {
  apparmor: true,
  audio: false,
  auth_api: false,
  backup: 'hot',
  boot: 'auto',
  devicetree: false,
  docker_api: false,
  full_access: false,
  gpio: false,
  hassio_api: false,
  hassio_role: 'default',
  homeassistant_api: false,
  host_dbus: false,
  host_ipc: false,
  host_network: false,
  host_pid: false,
  host_uts: false,
  ingress: false,
  ingress_entry: '/',
  ingress_port: 8099,
  ingress_stream: false,
  init: true,
  journald: false,
  kernel_modules: false,
  legacy: false,
  options: {},
  panel_admin: true,
  panel_icon: 'mdi:puzzle',
  realtime: false,
  schema: {},
  stage: 'stable',
  startup: 'application',
  stdin: false,
  timeout: 10,
  tmpfs: false,
  uart: false,
  udev: false,
  ulimits: {},
  usb: false,
  video: false,
};

// The Supervisor's option grammar (RE_SCHEMA_ELEMENT in supervisor/apps/options.py), empty type excluded.
const SCHEMA_ELEMENT = new RegExp(
  '^(?:bool|email|url|port|device(?:\\(subsystem=[a-z]+\\))?|str(?:\\((?:\\d+)?,(?:\\d+)?\\))?' +
    '|password(?:\\((?:\\d+)?,(?:\\d+)?\\))?|int(?:\\((?:-?\\d+)?,(?:-?\\d+)?\\))?' +
    '|float(?:\\((?:-?\\d*\\.?\\d+)?,(?:-?\\d*\\.?\\d+)?\\))?|match\\(.*\\)|list\\(.+\\))\\??$',
);

/** Problems with one option's schema: a type, a one-item list of a type or map, or a map of those. */
function schemaProblems(element: unknown, where: string, inList = false): string[] {
  if (typeof element === 'string') return SCHEMA_ELEMENT.test(element) ? [] : [`${where}: "${element}" is not an option type`];
  if (Array.isArray(element)) {
    if (inList) return [`${where}: a list may not directly hold a list`];
    if (element.length !== 1) return [`${where}: a list schema holds exactly one item type`];
    return schemaProblems(element[0], `${where}[0]`, true);
  }
  if (isDict(element)) return Object.entries(element).flatMap(([k, v]) => schemaProblems(v, `${where}.${k}`));
  return [`${where}: ${JSON.stringify(element)} is not an option type`];
}

function configProblems(config: Dict, file = 'config.yaml', usesS6 = true): string[] {
  const problems: string[] = [];
  for (const key of REQUIRED) if (!(key in config)) problems.push(`${file}: ${key} is required`);
  for (const [key, value] of Object.entries(config)) {
    const known = KEYS[key];
    if (key in RETIRED) problems.push(`${file}: ${key} ${RETIRED[key]}`);
    else if (!known) problems.push(`${file}: ${key} is not an add-on config key`);
    else if (!known[0](value)) problems.push(`${file}: ${key} must be ${known[1]}, not ${JSON.stringify(value)}`);
    if (key in DEFAULTS && isDeepStrictEqual(value, DEFAULTS[key])) problems.push(`${file}: ${key} repeats its default ${JSON.stringify(value)}; remove it`);
  }
  if (typeof config.slug === 'string' && !/^[a-z0-9_]+$/.test(config.slug)) problems.push(`${file}: slug "${config.slug}" must match [a-z0-9_]+`);
  for (const arch of Array.isArray(config.arch) ? config.arch : []) {
    if (DEPRECATED_ARCHES.includes(arch)) problems.push(`${file}: arch ${arch} is deprecated, no longer supported`);
  }
  if (config.ingress === true && 'webui' in config) problems.push(`${file}: webui must go when ingress is on`);
  // s6-overlay v3 must be PID 1: Docker's own init in front of it stops the add-on from starting.
  if (usesS6 && config.init !== false) problems.push(`${file}: init must be false, rootfs runs s6-overlay v3`);
  if (Array.isArray(config.discovery) && new Set(config.discovery).size !== config.discovery.length) problems.push(`${file}: discovery lists a service twice`);
  if (isDict(config.schema)) {
    problems.push(...schemaProblems(config.schema, `${file}: schema`));
    for (const key of Object.keys(isDict(config.options) ? config.options : {})) {
      if (!(key in (config.schema as Dict))) problems.push(`${file}: options.${key} has no schema entry`);
    }
  }
  return problems;
}

// ---- Dockerfile (no build.yaml) --------------------------------------------------------------

/** The Debian release (tag) of Home Assistant's multi-arch glibc base image, or undefined for any other image. */
const debianBase = (image: string) => /^ghcr\.io\/home-assistant\/base-debian:([a-z]+)$/.exec(image)?.[1];

/**
 * Supervisor 2026.04 and later build from the Dockerfile's own `ARG BUILD_FROM` default and call
 * build.yaml deprecated; older Supervisors, which need build.yaml, are not supported (the
 * Supervisor updates itself, and only its current release is). So: no build.yaml, and a default
 * that is the multi-arch Debian base.
 */
function buildProblems(dockerfile: string, paths: string[]): string[] {
  const problems: string[] = [];
  const from = dockerfileFrom(dockerfile);
  if (from === undefined) problems.push('Dockerfile: no ARG BUILD_FROM default');
  else if (debianBase(from) === undefined) problems.push(`Dockerfile: ARG BUILD_FROM default ${from} is not Home Assistant's multi-arch Debian base`);
  // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ${BUILD_FROM}, not a template
  if (!/^FROM \$\{BUILD_FROM\}$/m.test(dockerfile)) problems.push('Dockerfile: the final stage must be FROM ${BUILD_FROM}');
  for (const path of paths)
    if (/^build\.(?:yaml|yml|json)$/.test(path)) problems.push(`${path}: deprecated since Supervisor 2026.04, which reads the Dockerfile; remove it`);
  return problems;
}

const dockerfileFrom = (dockerfile: string) => /^ARG BUILD_FROM=(\S+)$/m.exec(dockerfile)?.[1];

// ---- repository.yaml ------------------------------------------------------------------------

function repositoryProblems(repository: Dict, file = 'repository.yaml'): string[] {
  const problems: string[] = [];
  if (typeof repository.name !== 'string' || !repository.name.trim()) problems.push(`${file}: name is required`);
  if (!httpUrl(repository.url)) problems.push(`${file}: url must be an http(s) URL, not ${JSON.stringify(repository.url)}`);
  if (typeof repository.maintainer !== 'string' || !repository.maintainer.trim()) problems.push(`${file}: maintainer is missing`);
  for (const key of Object.keys(repository)) {
    if (!['name', 'url', 'maintainer'].includes(key)) problems.push(`${file}: ${key} is not a repository key (the Supervisor drops it)`);
  }
  return problems;
}

// ---- files in the tree ----------------------------------------------------------------------

const CONFIG_SUFFIX = /\.(?:yaml|yml|json)$/;
const base = (path: string) => path.slice(path.lastIndexOf('/') + 1);

/**
 * Files the Supervisor would take for something else. It takes every `config.*` (.yaml/.yml/.json)
 * outside dot-folders and rootfs as another add-on, and the first `repository.*` or `build.*` it
 * finds anywhere below the repository root as the repository's or the add-on's.
 */
function strayFiles(paths: string[]): string[] {
  const problems: string[] = [];
  for (const path of paths) {
    const name = base(path);
    if (!CONFIG_SUFFIX.test(name)) continue;
    const hidden = path.split('/').some((part) => part.startsWith('.') || part === 'rootfs');
    if (name.startsWith('config.') && path !== 'config.yaml' && !hidden) problems.push(`${path}: the Supervisor would read it as another add-on's config`);
    if (name.startsWith('repository.') && path !== 'repository.yaml') problems.push(`${path}: the Supervisor may read it as the repository file`);
    if (name.startsWith('build.') && path !== 'build.yaml') problems.push(`${path}: the Supervisor may read it as the add-on's build file`);
  }
  return problems;
}

// ---- s6-overlay -----------------------------------------------------------------------------

const S6 = 'rootfs/etc/s6-overlay/s6-rc.d/';

/** Problems with the s6-rc service definitions, from `git ls-files -s` lines and a file reader. */
function s6Problems(staged: string, content: (path: string) => string): string[] {
  const problems: string[] = [];
  const modes = new Map(
    staged
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [meta, path] = line.split('\t') as [string, string];
        return [path, meta.split(' ')[0]!] as const;
      }),
  );
  const services = new Set<string>();
  for (const [path, mode] of modes) {
    const [service, file, ...rest] = path.slice(S6.length).split('/');
    if (!service || !file) continue;
    if (service !== 'user') services.add(service);
    if (rest.length === 0 && ['run', 'finish', 'up'].includes(file)) {
      if (mode !== '100755') problems.push(`${path}: committed as ${mode}, must be executable (100755)`);
    }
    if (rest.length === 0 && file === 'run' && !content(path).startsWith('#!/command/with-contenv bashio\n')) {
      problems.push(`${path}: must start with #!/command/with-contenv bashio`);
    }
  }
  for (const service of services) {
    const type = modes.has(`${S6}${service}/type`) ? content(`${S6}${service}/type`).trim() : undefined;
    if (type !== 'longrun' && type !== 'oneshot') problems.push(`${S6}${service}/type: must hold longrun or oneshot, holds ${JSON.stringify(type)}`);
    if (type === 'longrun' && !modes.has(`${S6}${service}/run`)) problems.push(`${S6}${service}: a longrun needs a run script`);
    if (type === 'oneshot' && !modes.has(`${S6}${service}/up`)) problems.push(`${S6}${service}: a oneshot needs an up file`);
  }
  // The user bundle (from the base image) starts what contents.d names; a name without a service stops s6-rc-compile.
  for (const path of modes.keys()) {
    if (!path.startsWith(`${S6}user/contents.d/`)) continue;
    const name = base(path);
    if (!services.has(name)) problems.push(`${path}: names a service that ${S6}${name}/ does not define`);
  }
  if (services.size === 0) problems.push(`${S6}: no service defined`);
  return problems;
}

// ---- images, AppArmor -----------------------------------------------------------------------

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Width and height from the IHDR chunk (bytes 16..24), and whether the PNG has an alpha channel. */
function png(data: Buffer, file: string): { width: number; height: number; alpha: boolean } {
  if (data.length < 33 || !data.subarray(0, 8).equals(PNG_SIGNATURE) || data.toString('latin1', 12, 16) !== 'IHDR') {
    throw new Error(`${file}: not a PNG file`);
  }
  return { width: data.readUInt32BE(16), height: data.readUInt32BE(20), alpha: [4, 6].includes(data[25]!) };
}

function imageProblems(file: string, data: Buffer, want: { width: number; height: number }, tolerance: number): string[] {
  let image: ReturnType<typeof png>;
  try {
    image = png(data, file);
  } catch (error) {
    return [(error as Error).message];
  }
  const problems: string[] = [];
  const off = (got: number, wanted: number) => Math.abs(got - wanted) > wanted * tolerance;
  if (off(image.width, want.width) || off(image.height, want.height)) {
    problems.push(`${file}: is ${image.width}x${image.height}, should be ${tolerance ? 'about ' : ''}${want.width}x${want.height}`);
  }
  if (!image.alpha) problems.push(`${file}: has no transparency (alpha channel)`);
  if (data.length > 64 * 1024) problems.push(`${file}: ${data.length} bytes; keep store images under 64 KiB`);
  return problems;
}

/**
 * The Supervisor takes the one line starting `profile NAME` as the profile (more than one is an
 * error) and renames NAME to its own slug; nested profiles are indented. The child profile the
 * service runs in may write only to /data and /tmp.
 */
function apparmorProblems(profile: string, slug: string, file = 'apparmor.txt'): string[] {
  const problems: string[] = [];
  if (!/^#include <tunables\/global>$/m.test(profile)) problems.push(`${file}: #include <tunables/global> missing`);
  const top = [...profile.matchAll(/^profile (\S+)/gm)].map((m) => m[1]);
  if (top.length !== 1) problems.push(`${file}: needs exactly one top-level profile, has ${top.length}`);
  else if (top[0] !== slug) problems.push(`${file}: profile ${top[0]} must be named after the slug ${slug}`);
  for (const [, target] of profile.matchAll(/\bcx -> (\S+),/g)) {
    const child = new RegExp(`^\\s+profile ${target} [^{]*\\{([^}]*)\\}`, 'm').exec(profile);
    if (!child) {
      problems.push(`${file}: cx -> ${target} has no nested profile ${target}`);
      continue;
    }
    for (const [, path, perms] of child[1]!.matchAll(/^\s*(?:owner\s+)?(\/\S*|@\{\w+\}\S*)\s+([rwaklmixPpCcU]+),/gm)) {
      if (/[wa]/.test(perms!) && !/^\/(?:data|tmp)\//.test(path!))
        problems.push(`${file}: profile ${target} may write ${path}; only /data and /tmp are the service's`);
    }
  }
  return problems;
}

// ---- the add-on as committed ----------------------------------------------------------------

const config = yaml('config.yaml');

describe('the add-on files as the Supervisor and the linter read them', () => {
  test('config.yaml: required fields, known keys of the right type, no defaults, options grammar', () => {
    expect(
      configProblems(
        config,
        'config.yaml',
        tracked.some((path) => path.startsWith(S6)),
      ),
    ).toEqual([]);
  });

  test('the Dockerfile builds on the multi-arch Debian base, and there is no build.yaml', () => {
    expect(buildProblems(read('Dockerfile').toString('utf8'), tracked)).toEqual([]);
  });

  test('repository.yaml: name, an http(s) url and a maintainer', () => {
    expect(repositoryProblems(yaml('repository.yaml'))).toEqual([]);
  });

  test('translations: known sections, and port descriptions only for ports config.yaml maps', () => {
    const files = tracked.filter((path) => path.startsWith('translations/'));
    expect(files, 'translations/').toContain('translations/en.yaml');
    const ports = Object.keys(isDict(config.ports) ? config.ports : {});
    for (const file of files) {
      expect(file, `${file}: translations must be .yaml, .yml or .json`).toMatch(CONFIG_SUFFIX);
      const translation = yaml(file);
      for (const key of Object.keys(translation)) expect(['configuration', 'network'], `${file}: ${key}`).toContain(key);
      for (const [port, text] of Object.entries(isDict(translation.network) ? translation.network : {})) {
        expect(ports, `${file}: network.${port} is not a port in config.yaml`).toContain(port);
        expect(typeof text === 'string' && text.trim() !== '', `${file}: network.${port} needs a description`).toBe(true);
      }
    }
  });

  test('s6 services: scripts committed executable, run through with-contenv bashio, valid types', () => {
    expect(s6Problems(git('ls-files', '-s', '--', S6), (path) => read(path).toString('utf8'))).toEqual([]);
  });

  test('icon.png is 128x128 and logo.png about 250x100, both PNGs with transparency', () => {
    expect(imageProblems('icon.png', read('icon.png'), { width: 128, height: 128 }, 0)).toEqual([]);
    expect(imageProblems('logo.png', read('logo.png'), { width: 250, height: 100 }, 0.1)).toEqual([]);
    expect(tracked, 'icon.png and logo.png must be committed').toEqual(expect.arrayContaining(['icon.png', 'logo.png']));
  });

  test('apparmor.txt: one profile named after the slug, the service writing only /data and /tmp', () => {
    expect(apparmorProblems(read('apparmor.txt').toString('utf8'), String(config.slug))).toEqual([]);
  });

  test('no config, build or repository file elsewhere in the tree that the Supervisor would pick up', () => {
    expect(tracked).toEqual(expect.arrayContaining(['config.yaml', 'Dockerfile', 'repository.yaml']));
    expect(strayFiles(tracked)).toEqual([]);
  });
});

// ---- each rule catches what it is for --------------------------------------------------------

describe('the rules fail on broken files', () => {
  const good = { name: 'X', version: '1.0.0', slug: 'x', description: 'd', arch: ['amd64'], init: false };

  test('config.yaml rules', () => {
    const problems = (extra: Dict, omit: string[] = []) =>
      configProblems(Object.fromEntries(Object.entries({ ...good, ...extra }).filter(([k]) => !omit.includes(k))));
    expect(problems({})).toEqual([]);
    expect(problems({}, ['arch'])).toEqual(['config.yaml: arch is required']);
    expect(problems({ watchdog: 'tcp://[HOST]:[PORT:3000]' })).toEqual(['config.yaml: watchdog is obsolete: use the Docker HEALTHCHECK']);
    expect(problems({ startup_mode: 'x' })).toEqual(['config.yaml: startup_mode is not an add-on config key']);
    expect(problems({ ingress: 'yes please' })[0]).toMatch(/^config.yaml: ingress must be a boolean/);
    expect(problems({ version: 1.1 })[0]).toMatch(/^config.yaml: version must be a string/);
    expect(problems({ startup: 'application' })).toEqual(['config.yaml: startup repeats its default "application"; remove it']);
    expect(problems({ ingress_port: 8099 })).toEqual(['config.yaml: ingress_port repeats its default 8099; remove it']);
    expect(problems({ panel_icon: 'mdi:puzzle' })).toEqual(['config.yaml: panel_icon repeats its default "mdi:puzzle"; remove it']);
    expect(problems({ hassio_role: 'default' })).toEqual(['config.yaml: hassio_role repeats its default "default"; remove it']);
    expect(problems({ slug: 'Home-Bridge' })).toEqual(['config.yaml: slug "Home-Bridge" must match [a-z0-9_]+']);
    expect(problems({ arch: ['armv7'] })).toEqual(['config.yaml: arch armv7 is deprecated, no longer supported']);
    expect(problems({ arch: ['sparc'] })[0]).toMatch(/^config.yaml: arch must be a list of aarch64, amd64/);
    expect(problems({ init: true })).toEqual([
      'config.yaml: init repeats its default true; remove it',
      'config.yaml: init must be false, rootfs runs s6-overlay v3',
    ]);
    expect(problems({ discovery: ['mcp', 3] })[0]).toMatch(/^config.yaml: discovery must be a list of service names/);
    expect(problems({ options: { a: 1, b: 2 }, schema: { a: 'int' } })).toEqual(['config.yaml: options.b has no schema entry']);
    const schema = (element: unknown) => problems({ schema: { key: element } });
    for (const ok of [
      'str',
      'str?',
      'int(1,10)',
      'int(,5)?',
      'float(-1.5,2)',
      'bool',
      'password?',
      'email',
      'url',
      'port',
      'match(^a+$)',
      'list(a|b)',
      'device(subsystem=tty)',
      ['str'],
      [{ host: 'str', port: 'port' }],
    ]) {
      expect(schema(ok), JSON.stringify(ok)).toEqual([]);
    }
    expect(schema('string')).toEqual(['config.yaml: schema.key: "string" is not an option type']);
    expect(schema('int(1-10)')).toEqual(['config.yaml: schema.key: "int(1-10)" is not an option type']);
    expect(schema('')).toEqual(['config.yaml: schema.key: "" is not an option type']);
    expect(schema(['str', 'int'])).toEqual(['config.yaml: schema.key: a list schema holds exactly one item type']);
    expect(schema([['str']])).toEqual(['config.yaml: schema.key[0]: a list may not directly hold a list']);
  });

  test('Dockerfile and build.yaml rules', () => {
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ${BUILD_FROM}, not a template
    const ok = 'ARG BUILD_FROM=ghcr.io/home-assistant/base-debian:trixie\nFROM node AS build\nFROM ${BUILD_FROM}\n';
    expect(buildProblems(ok, ['Dockerfile'])).toEqual([]);
    expect(buildProblems(ok, ['Dockerfile', 'build.yaml'])).toEqual(['build.yaml: deprecated since Supervisor 2026.04, which reads the Dockerfile; remove it']);
    expect(buildProblems(ok.replace('base-debian:trixie', 'base:3.23'), [])).toEqual([
      "Dockerfile: ARG BUILD_FROM default ghcr.io/home-assistant/base:3.23 is not Home Assistant's multi-arch Debian base",
    ]);
    expect(buildProblems(ok.replace('base-debian', 'amd64-base-debian'), [])[0]).toMatch(/is not Home Assistant's multi-arch Debian base/);
    // biome-ignore lint/suspicious/noTemplateCurlyInString: the Dockerfile's own ${BUILD_FROM}, not a template
    expect(buildProblems('FROM debian\n', [])).toEqual(['Dockerfile: no ARG BUILD_FROM default', 'Dockerfile: the final stage must be FROM ${BUILD_FROM}']);
    expect(dockerfileFrom('FROM x\nARG BUILD_FROM=ghcr.io/a/b:c\n')).toBe('ghcr.io/a/b:c');
  });

  test('repository.yaml rules', () => {
    const repo = { name: 'R', url: 'https://example.org/r', maintainer: 'M' };
    expect(repositoryProblems(repo)).toEqual([]);
    expect(repositoryProblems({ ...repo, name: '' })).toEqual(['repository.yaml: name is required']);
    expect(repositoryProblems({ ...repo, url: 'example.org/r' })).toEqual(['repository.yaml: url must be an http(s) URL, not "example.org/r"']);
    expect(repositoryProblems({ name: 'R', url: 'https://example.org/r' })).toEqual(['repository.yaml: maintainer is missing']);
    expect(repositoryProblems({ ...repo, maintainers: 'M' })).toEqual(['repository.yaml: maintainers is not a repository key (the Supervisor drops it)']);
  });

  test('stray config, build and repository files', () => {
    expect(strayFiles(['config.yaml', 'tests/unit/config.test.ts', '.github/config.yml', 'rootfs/etc/config.json'])).toEqual([]);
    expect(strayFiles(['tests/fixtures/config.json'])).toEqual(["tests/fixtures/config.json: the Supervisor would read it as another add-on's config"]);
    expect(strayFiles(['plugins/x/config.sample.yml'])).toHaveLength(1);
    expect(strayFiles(['.github/repository.yaml'])).toEqual(['.github/repository.yaml: the Supervisor may read it as the repository file']);
    expect(strayFiles(['bench/build.json'])).toEqual(["bench/build.json: the Supervisor may read it as the add-on's build file"]);
  });

  test('s6 rules', () => {
    const files: Dict = {
      [`${S6}svc/type`]: 'longrun\n',
      [`${S6}svc/run`]: '#!/command/with-contenv bashio\nexec x\n',
      [`${S6}user/contents.d/svc`]: '',
    };
    const ls = (modes: Record<string, string>) =>
      Object.keys(modes)
        .map((path) => `${modes[path]} 0000 0\t${path}`)
        .join('\n');
    const content = (path: string) => String(files[path]);
    const okModes = { [`${S6}svc/type`]: '100644', [`${S6}svc/run`]: '100755', [`${S6}user/contents.d/svc`]: '100644' };
    expect(s6Problems(ls(okModes), content)).toEqual([]);
    expect(s6Problems(ls({ ...okModes, [`${S6}svc/run`]: '100644' }), content)).toEqual([`${S6}svc/run: committed as 100644, must be executable (100755)`]);
    expect(s6Problems(ls({ ...okModes, [`${S6}svc/finish`]: '100644' }), (p) => (p.endsWith('finish') ? '#!/bin/sh\n' : content(p)))).toEqual([
      `${S6}svc/finish: committed as 100644, must be executable (100755)`,
    ]);
    expect(s6Problems(ls(okModes), (p) => (p.endsWith('/run') ? '#!/usr/bin/with-contenv bashio\n' : content(p)))).toEqual([
      `${S6}svc/run: must start with #!/command/with-contenv bashio`,
    ]);
    expect(s6Problems(ls(okModes), (p) => (p.endsWith('/type') ? 'long-run\n' : content(p)))).toEqual([
      `${S6}svc/type: must hold longrun or oneshot, holds "long-run"`,
    ]);
    expect(s6Problems(ls({ ...okModes, [`${S6}user/contents.d/other`]: '100644' }), content)).toEqual([
      `${S6}user/contents.d/other: names a service that ${S6}other/ does not define`,
    ]);
  });

  test('image rules', () => {
    const header = (width: number, height: number, colourType: number) => {
      const data = Buffer.alloc(40);
      PNG_SIGNATURE.copy(data);
      data.write('IHDR', 12, 'latin1');
      data.writeUInt32BE(width, 16);
      data.writeUInt32BE(height, 20);
      data[25] = colourType;
      return data;
    };
    expect(imageProblems('icon.png', header(128, 128, 6), { width: 128, height: 128 }, 0)).toEqual([]);
    expect(imageProblems('icon.png', header(128, 127, 6), { width: 128, height: 128 }, 0)).toEqual(['icon.png: is 128x127, should be 128x128']);
    expect(imageProblems('logo.png', header(240, 96, 6), { width: 250, height: 100 }, 0.1)).toEqual([]);
    expect(imageProblems('logo.png', header(500, 200, 6), { width: 250, height: 100 }, 0.1)).toEqual(['logo.png: is 500x200, should be about 250x100']);
    expect(imageProblems('icon.png', header(128, 128, 2), { width: 128, height: 128 }, 0)).toEqual(['icon.png: has no transparency (alpha channel)']);
    expect(imageProblems('icon.png', Buffer.from(`GIF89a${' '.repeat(40)}`), { width: 128, height: 128 }, 0)).toEqual(['icon.png: not a PNG file']);
  });

  test('AppArmor rules', () => {
    const profile = (name: string, rules: string) =>
      `#include <tunables/global>\nprofile ${name} flags=(attach_disconnected) {\n  /usr/local/bin/node cx -> node,\n  profile node flags=(attach_disconnected) {\n${rules}  }\n}\n`;
    expect(apparmorProblems(profile('home_mcp_bridge', '    /data/** rwk,\n    /opt/app/** r,\n'), 'home_mcp_bridge')).toEqual([]);
    expect(apparmorProblems(profile('example', ''), 'home_mcp_bridge')).toEqual(['apparmor.txt: profile example must be named after the slug home_mcp_bridge']);
    expect(apparmorProblems(profile('home_mcp_bridge', '').replace('#include <tunables/global>\n', ''), 'home_mcp_bridge')).toEqual([
      'apparmor.txt: #include <tunables/global> missing',
    ]);
    expect(apparmorProblems(`${profile('home_mcp_bridge', '')}profile other {\n}\n`, 'home_mcp_bridge')).toEqual([
      'apparmor.txt: needs exactly one top-level profile, has 2',
    ]);
    expect(apparmorProblems(profile('home_mcp_bridge', '    /etc/** rw,\n    owner @{PROC}/@{pid}/** r,\n'), 'home_mcp_bridge')).toEqual([
      "apparmor.txt: profile node may write /etc/**; only /data and /tmp are the service's",
    ]);
    expect(apparmorProblems(profile('home_mcp_bridge', '').replace('profile node', 'profile nodejs'), 'home_mcp_bridge')).toEqual([
      'apparmor.txt: cx -> node has no nested profile node',
    ]);
  });
});

describe('the Home Assistant the add-on asks for', () => {
  test("config.yaml's homeassistant minimum is the oldest release the end-to-end suite runs against", () => {
    expect(yaml('config.yaml').homeassistant).toBe(OLDEST_VERSION);
    expect(Object.keys(RELEASES)).toContain(OLDEST_VERSION);
  });
});
