// Just enough of the PE/COFF format (Microsoft's "PE Format" specification) to check a
// Windows executable built on Linux: its machine type and one named resource's bytes.

export interface PeInfo {
  machine: number;
  /** PE32+ (0x20b) for 64-bit images. */
  magic: number;
  sections: { name: string; rva: number; size: number; offset: number }[];
}

function header(buf: Buffer): { info: PeInfo; resourceRva: number } {
  if (buf.toString('latin1', 0, 2) !== 'MZ') throw new Error('no MZ header');
  const pe = buf.readUInt32LE(0x3c);
  if (buf.toString('latin1', pe, pe + 4) !== 'PE\0\0') throw new Error('no PE signature');
  const machine = buf.readUInt16LE(pe + 4);
  const count = buf.readUInt16LE(pe + 6);
  const optSize = buf.readUInt16LE(pe + 20);
  const opt = pe + 24;
  const magic = buf.readUInt16LE(opt);
  const dirs = opt + (magic === 0x20b ? 112 : 96);
  const resourceRva = buf.readUInt32LE(dirs + 2 * 8);
  const sections = [];
  for (let i = 0, s = opt + optSize; i < count; i++, s += 40) {
    sections.push({
      name: buf.toString('latin1', s, s + 8).replace(/\0+$/, ''),
      size: buf.readUInt32LE(s + 8),
      rva: buf.readUInt32LE(s + 12),
      offset: buf.readUInt32LE(s + 20),
    });
  }
  return { info: { machine, magic, sections }, resourceRva };
}

export function peInfo(buf: Buffer): PeInfo {
  return header(buf).info;
}

/** The bytes of resource `type`/`name` (first language), or null when there is none. */
export function peResource(buf: Buffer, type: number, name: string): Buffer | null {
  const { info, resourceRva } = header(buf);
  const toOffset = (rva: number) => {
    const s = info.sections.find((x) => rva >= x.rva && rva < x.rva + x.size);
    if (!s) throw new Error(`RVA 0x${rva.toString(16)} is in no section`);
    return rva - s.rva + s.offset;
  };
  const base = toOffset(resourceRva);
  const entries = (dir: number) => {
    const n = buf.readUInt16LE(base + dir + 12) + buf.readUInt16LE(base + dir + 14);
    return Array.from({ length: n }, (_, i) => {
      const e = base + dir + 16 + i * 8;
      const id = buf.readUInt32LE(e);
      const to = buf.readUInt32LE(e + 4);
      const label =
        id & 0x80000000
          ? buf.toString('utf16le', base + (id & 0x7fffffff) + 2, base + (id & 0x7fffffff) + 2 + 2 * buf.readUInt16LE(base + (id & 0x7fffffff)))
          : id;
      return { label, to: to & 0x7fffffff, isDir: (to & 0x80000000) !== 0 };
    });
  };
  const byType = entries(0).find((e) => e.label === type && e.isDir);
  const byName = byType && entries(byType.to).find((e) => e.label === name && e.isDir);
  const lang = byName && entries(byName.to)[0];
  if (!lang || lang.isDir) return null;
  const data = toOffset(buf.readUInt32LE(base + lang.to));
  return buf.subarray(data, data + buf.readUInt32LE(base + lang.to + 4));
}
