// The one order of a Property's units, in every file and in browse: the order a person
// reading a bill expects (flats, then shops, then common areas, then plant rooms), names
// compared naturally so "WE 2" comes before "WE 10". Byte-stable: no locale involved.

const TYPE_RANK: Record<string, number> = { residential: 0, commercial: 1, traffic: 2, technical: 3 };

/** Rank of a unit type; a type this version does not know comes last. */
function typeRank(t: unknown): number {
  return typeof t === 'string' ? (TYPE_RANK[t] ?? 4) : 4;
}

const PARTS = /(\d+)|(\D+)/g;

/** Natural order of names: digit runs compare by value ("WE 2" < "WE 10"), the rest by code point. */
export function compareNames(a: string, b: string): number {
  const x = a.match(PARTS) ?? [];
  const y = b.match(PARTS) ?? [];
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const p = x[i]!;
    const q = y[i]!;
    const digits = /^\d/.test(p) && /^\d/.test(q);
    const d = digits ? compareDigits(p, q) : p < q ? -1 : p > q ? 1 : 0;
    if (d !== 0) return d;
  }
  return x.length - y.length || (a < b ? -1 : a > b ? 1 : 0);
}

/** Compares digit runs of any length by value, without Number's precision limit ("02" ties "2": the whole names decide). */
function compareDigits(p: string, q: string): number {
  const a = p.replace(/^0+(?=\d)/, '');
  const b = q.replace(/^0+(?=\d)/, '');
  return a.length - b.length || (a < b ? -1 : a > b ? 1 : 0);
}

export interface UnitOrderKey {
  id: string;
  name: string;
  unit_type: unknown;
}

/** Residential units by name, then commercial, then common areas (traffic), then technical; ids break ties. */
export function compareUnits(a: UnitOrderKey, b: UnitOrderKey): number {
  return typeRank(a.unit_type) - typeRank(b.unit_type) || compareNames(a.name, b.name) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
