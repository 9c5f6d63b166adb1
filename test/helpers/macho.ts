// Just enough of the Mach-O format (Apple's <mach-o/loader.h>) to check a macOS executable
// built on Linux: its CPU type and the bytes of one section of one segment.

export const CPU_TYPE_X86_64 = 0x01000007;
export const CPU_TYPE_ARM64 = 0x0100000c;
const MH_MAGIC_64 = 0xfeedfacf;
const LC_SEGMENT_64 = 0x19;
export const LC_CODE_SIGNATURE = 0x1d;

export interface MachOInfo {
  cpuType: number;
  /** MH_EXECUTE is 2. */
  fileType: number;
  /** The type of each load command, in order. */
  commands: number[];
  segments: { name: string; fileOffset: number; fileSize: number; sections: { name: string; offset: number; size: number }[] }[];
}

const name16 = (buf: Buffer, at: number) => buf.toString('latin1', at, at + 16).replace(/\0+$/, '');

/** A thin 64-bit little-endian Mach-O image (a universal "fat" file is refused). */
export function machoInfo(buf: Buffer): MachOInfo {
  if (buf.length < 32 || buf.readUInt32LE(0) !== MH_MAGIC_64) throw new Error('not a 64-bit little-endian Mach-O image');
  const count = buf.readUInt32LE(16);
  const segments: MachOInfo['segments'] = [];
  const commands: number[] = [];
  for (let i = 0, at = 32; i < count; i++, at += buf.readUInt32LE(at + 4)) {
    commands.push(buf.readUInt32LE(at));
    if (commands.at(-1) !== LC_SEGMENT_64) continue;
    const sections = Array.from({ length: buf.readUInt32LE(at + 64) }, (_, j) => {
      const s = at + 72 + j * 80;
      return { name: name16(buf, s), size: Number(buf.readBigUInt64LE(s + 40)), offset: buf.readUInt32LE(s + 48) };
    });
    segments.push({ name: name16(buf, at + 8), fileOffset: Number(buf.readBigUInt64LE(at + 40)), fileSize: Number(buf.readBigUInt64LE(at + 48)), sections });
  }
  return { cpuType: buf.readInt32LE(4) >>> 0, fileType: buf.readUInt32LE(12), commands, segments };
}

/** The bytes of section `section` of segment `segment`, or null when there is none. */
export function machoSection(buf: Buffer, segment: string, section: string): Buffer | null {
  const s = machoInfo(buf)
    .segments.find((g) => g.name === segment)
    ?.sections.find((x) => x.name === section);
  return s ? buf.subarray(s.offset, s.offset + s.size) : null;
}
