// Reads, and rewrites in a copy, the few ELF64 structures the dynamic loader uses to bind a shared
// object's versioned imports: .dynsym, .dynstr, .gnu.version (versym) and .gnu.version_r (verneed).
// uWebSockets.js's Linux binaries are built against glibc 2.38 and import three C23 functions that
// older glibc lacks; redirectC23Imports() points them at their pre-C23 twins, which behave the same
// except that the C23 ones also read a `0b` binary prefix (and scanf's %b).

const SHT_DYNAMIC = 6;
const SHT_DYNSYM = 11;
const SHT_GNU_HASH = 0x6ffffff6;
const SHT_GNU_VERNEED = 0x6ffffffe;
const SHT_GNU_VERSYM = 0x6fffffff;
const VER_FLG_WEAK = 0x2;
const VERSYM_HIDDEN = 0x8000;
const SHN_UNDEF = 0;

/** The C23 imports and the older functions with the same behaviour on every input uWS gives them. */
export const C23_REDIRECTS = Object.freeze({
  __isoc23_sscanf: '__isoc99_sscanf',
  __isoc23_strtol: 'strtol',
  __isoc23_strtoul: 'strtoul',
});

/** The version glibc gave its oldest symbols on each machine (EM_X86_64, EM_AARCH64). */
const BASE_VERSION = new Map([
  [62, 'GLIBC_2.2.5'],
  [183, 'GLIBC_2.17'],
]);

const LIBC = 'libc.so.6';

/** Compares glibc version names or numbers ("GLIBC_2.38", "2.36"): negative, 0 or positive. */
export function compareGlibc(a, b) {
  const parts = (v) =>
    v
      .replace(/^GLIBC_/, '')
      .split('.')
      .map(Number);
  const x = parts(a);
  const y = parts(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

function cString(buf, offset) {
  const end = buf.indexOf(0, offset);
  if (end < 0) throw new Error(`unterminated string at ${offset}`);
  return buf.toString('latin1', offset, end);
}

/**
 * Parses what is needed: the machine, each needed library's versions (with their vernaux entry's
 * file offset) and every dynamic symbol with its version. Throws on anything but a little-endian
 * ELF64 shared object with symbol versioning.
 */
export function readDynamic(buf) {
  if (buf.length < 64 || buf.readUInt32BE(0) !== 0x7f454c46) throw new Error('not an ELF file');
  if (buf[4] !== 2 || buf[5] !== 1) throw new Error('not a little-endian 64-bit ELF file');
  if (buf.readUInt16LE(16) !== 3) throw new Error('not a shared object (ET_DYN)');
  const machine = buf.readUInt16LE(18);
  const shoff = Number(buf.readBigUInt64LE(40));
  const shentsize = buf.readUInt16LE(58);
  const shnum = buf.readUInt16LE(60);
  if (shoff === 0 || shnum === 0 || shoff + shnum * shentsize > buf.length) throw new Error('no section headers');

  const sections = [];
  for (let i = 0; i < shnum; i++) {
    const o = shoff + i * shentsize;
    sections.push({
      type: buf.readUInt32LE(o + 4),
      offset: Number(buf.readBigUInt64LE(o + 24)),
      size: Number(buf.readBigUInt64LE(o + 32)),
      link: buf.readUInt32LE(o + 40),
      info: buf.readUInt32LE(o + 44),
      entsize: Number(buf.readBigUInt64LE(o + 56)),
    });
  }
  const one = (type, what) => {
    const found = sections.filter((s) => s.type === type);
    if (found.length !== 1) throw new Error(`expected one ${what} section, found ${found.length}`);
    return found[0];
  };
  const dynsym = one(SHT_DYNSYM, '.dynsym');
  const versym = one(SHT_GNU_VERSYM, '.gnu.version');
  const verneed = one(SHT_GNU_VERNEED, '.gnu.version_r');
  const dynstr = sections[dynsym.link];
  if (!dynstr || sections[verneed.link] !== dynstr) throw new Error('.dynsym and .gnu.version_r use different string tables');
  if (dynsym.entsize !== 24) throw new Error('unexpected .dynsym entry size');
  const str = (o) => cString(buf, dynstr.offset + o);
  // Every offset into .dynstr that something names: symbols, verneed files and versions, and the
  // .dynamic entries that hold strings (DT_NEEDED, DT_SONAME, DT_RPATH, DT_RUNPATH).
  const stringRefs = [];
  const dynamic = sections.find((s) => s.type === SHT_DYNAMIC);
  if (dynamic) {
    for (let o = dynamic.offset; o + 16 <= dynamic.offset + dynamic.size; o += 16) {
      const tag = Number(buf.readBigUInt64LE(o));
      if (tag === 0) break;
      if ([1, 14, 15, 29].includes(tag)) stringRefs.push(Number(buf.readBigUInt64LE(o + 8)));
    }
  }

  // Verneed entries, each with its vernaux list: the version index (vna_other) names a version of a file.
  const versions = new Map();
  const needs = [];
  let vn = verneed.offset;
  for (let i = 0; i < verneed.info; i++) {
    const file = str(buf.readUInt32LE(vn + 4));
    stringRefs.push(buf.readUInt32LE(vn + 4));
    const need = { file, versions: [] };
    let aux = vn + buf.readUInt32LE(vn + 8);
    for (let j = 0; j < buf.readUInt16LE(vn + 2); j++) {
      stringRefs.push(buf.readUInt32LE(aux + 8));
      const v = { name: str(buf.readUInt32LE(aux + 8)), index: buf.readUInt16LE(aux + 6), flags: buf.readUInt16LE(aux + 4), file, auxOffset: aux };
      need.versions.push(v);
      versions.set(v.index, v);
      const next = buf.readUInt32LE(aux + 12);
      if (next === 0) break;
      aux += next;
    }
    needs.push(need);
    const next = buf.readUInt32LE(vn + 12);
    if (next === 0) break;
    vn += next;
  }

  const count = dynsym.size / 24;
  if (versym.size !== count * 2) throw new Error('.gnu.version does not match .dynsym');
  const symbols = [];
  for (let i = 0; i < count; i++) {
    const o = dynsym.offset + i * 24;
    const nameOffset = buf.readUInt32LE(o);
    stringRefs.push(nameOffset);
    const raw = buf.readUInt16LE(versym.offset + i * 2);
    const version = versions.get(raw & ~VERSYM_HIDDEN);
    symbols.push({
      index: i,
      name: str(nameOffset),
      nameOffset,
      undefined: buf.readUInt16LE(o + 6) === SHN_UNDEF,
      version: version?.name,
      file: version?.file,
      versymOffset: versym.offset + i * 2,
    });
  }

  // Symbols below .gnu.hash's symoffset are outside the hash table: renaming them leaves it valid.
  const gnuHash = sections.find((s) => s.type === SHT_GNU_HASH);
  const hashedFrom = gnuHash ? buf.readUInt32LE(gnuHash.offset + 4) : 0;

  return { machine, needs, symbols, stringRefs, dynstr: { offset: dynstr.offset, size: dynstr.size }, hashedFrom, hasGnuHash: Boolean(gnuHash) };
}

/** The glibc versions (of libc, libm, ld.so...) the object's imports need, newest first. */
export function glibcNeeds(info) {
  const used = new Set(info.symbols.filter((s) => s.undefined && s.version?.startsWith('GLIBC_')).map((s) => s.version));
  return [...used].sort((a, b) => compareGlibc(b, a));
}

/**
 * Returns a copy of `buf` in which the C23 imports are redirected for a host with glibc `hostGlibc`
 * (e.g. "2.36"): each name is rewritten in .dynstr, its version becomes libc's base version, and
 * every libc version need that no import uses any more, and that the host lacks, is marked weak
 * (the loader then skips it instead of refusing the object). Throws if any import would still need
 * a glibc newer than the host's: the copy must load there, or not be made.
 */
export function redirectC23Imports(buf, hostGlibc) {
  const info = readDynamic(buf);
  const newest = glibcNeeds(info)[0];
  if (!newest || compareGlibc(newest, hostGlibc) <= 0) throw new Error(`nothing to redirect: the object loads on glibc ${hostGlibc} as it is`);
  const baseName = BASE_VERSION.get(info.machine);
  if (!baseName) throw new Error(`no base glibc version known for ELF machine ${info.machine}`);
  const libc = info.needs.find((n) => n.file === LIBC);
  const base = libc?.versions.find((v) => v.name === baseName);
  if (!base) throw new Error(`the object needs no ${baseName} of ${LIBC} to redirect to`);

  const out = Buffer.from(buf);
  const renamed = [];
  const targets = info.symbols.filter((s) => s.undefined && Object.hasOwn(C23_REDIRECTS, s.name) && s.file === LIBC);
  // Every other reference into .dynstr must survive the rewrite: none may start inside a rewritten name.
  const otherStarts = new Set(info.stringRefs);
  for (const s of targets) otherStarts.delete(s.nameOffset);
  for (const s of targets) {
    if (info.hasGnuHash && s.index >= info.hashedFrom) throw new Error(`${s.name} is in the symbol hash table`);
    const to = C23_REDIRECTS[s.name];
    if (to.length > s.name.length) throw new Error(`${to} is longer than ${s.name}`);
    for (let o = s.nameOffset + 1; o <= s.nameOffset + to.length; o++) {
      if (otherStarts.has(o)) throw new Error(`another symbol name shares the bytes of ${s.name}`);
    }
    out.write(`${to}\0`, info.dynstr.offset + s.nameOffset, 'latin1');
    const raw = out.readUInt16LE(s.versymOffset);
    out.writeUInt16LE((raw & VERSYM_HIDDEN) | base.index, s.versymOffset);
    renamed.push({ from: `${s.name}@${s.version}`, to: `${to}@${base.name}` });
  }

  const after = readDynamic(out);
  const stillUsed = new Set(after.symbols.filter((s) => s.undefined && s.version).map((s) => `${s.file} ${s.version}`));
  const weakened = [];
  for (const need of after.needs) {
    for (const v of need.versions) {
      if (!v.name.startsWith('GLIBC_') || compareGlibc(v.name, hostGlibc) <= 0) continue;
      const user = after.symbols.find((s) => s.undefined && s.file === need.file && s.version === v.name);
      if (stillUsed.has(`${need.file} ${v.name}`))
        throw new Error(`${user?.name}@${v.name} (${need.file}) has no older equivalent; glibc ${hostGlibc} cannot load this object`);
      out.writeUInt16LE(v.flags | VER_FLG_WEAK, v.auxOffset + 4);
      weakened.push(`${need.file} ${v.name}`);
    }
  }
  return { output: out, renamed, weakened };
}
