// --plant-meters FILE: the landlord says which plant-room heat meter is which, so no name is read
// (§ 9 Abs. 2 HeizkostenV: the warm-water heat is the warm-water heat meter's only where one measures
// warm water alone; docs/uvi.md, "Which plant meter is which"). A CSV with the columns property_id,
// measuring_point_id and role (warm_water_heat or plant_heat), comma or semicolon, BOM tolerated, read
// with the other flags before any request: a bad line is one error naming it (exit 2). Whether the
// Property has the listed points is checked with its answers (classifyPlant). Plain data: it crosses
// into the export's worker thread with the run.
import { UUID } from '../../api/types.js';
import { UsageError } from '../../core/errors.js';
import { parseCsvRecords } from '../../plausibility/index.js';
import { readOwnText } from './own-file.js';
import { plantMeterTexts as t } from './texts-plant-meters.js';

export const PLANT_METERS_CODE = 'UVI_PLANT_METERS_INVALID';
export const PLANT_METER_ROLES = ['warm_water_heat', 'plant_heat'] as const;
export type PlantMeterRole = (typeof PLANT_METER_ROLES)[number];
const COLUMNS = ['property_id', 'measuring_point_id', 'role'] as const;

/** One line of the file: ids in lower case, its line for the messages. */
export interface PlantMeterEntry {
  property_id: string;
  measuring_point_id: string;
  role: PlantMeterRole;
  line: number;
}

export interface PlantMeters {
  /** As given on the command line, for messages. */
  file: string;
  entries: PlantMeterEntry[];
}

/** null without the flag; otherwise the file read and checked, or a UsageError naming the file and line. */
export function readPlantMeters(given: string | undefined, cwd: string): PlantMeters | null {
  if (given === undefined) return null;
  return parsePlantMeters(readOwnText('--plant-meters', given, cwd, { code: PLANT_METERS_CODE, hint: t.fileHint }), given);
}

/** The entries of one Property, or undefined when the file does not list it (its names are read then). */
export function plantMetersOf(meters: PlantMeters | null | undefined, propertyId: string): PlantMeterEntry[] | undefined {
  const key = propertyId.toLowerCase();
  const listed = meters?.entries.filter((e) => e.property_id === key) ?? [];
  return listed.length > 0 ? listed : undefined;
}

/** Pure: the file's text to its entries. */
export function parsePlantMeters(text: string, file: string): PlantMeters {
  const body = text.replace(/^\uFEFF/, '');
  const head = body.split(/\r\n|\n|\r/, 100).find((l) => l.trim() !== '') ?? '';
  const separator = head.includes(';') && !head.split(',').some((c) => c.trim().toLowerCase() === 'role') ? ';' : ',';
  const { records, open } = parseCsvRecords(body, separator);
  const bad = (message: string, line: number, hint: string = t.lineHint) => new UsageError(message, hint, PLANT_METERS_CODE);
  if (open !== null) throw bad(t.openQuote({ file, line: open }), open);
  const rows = records.filter((r) => r.fields.some((f) => f.trim() !== ''));
  const header = rows.shift() ?? { fields: [], line: 1 };
  const names = header.fields.map((h) => h.trim().toLowerCase());
  const at = COLUMNS.map((column) => {
    const i = names.indexOf(column);
    if (i < 0 || names.lastIndexOf(column) !== i) throw bad(t.noColumn({ file, line: header.line, column }), header.line, t.columnHint);
    return i;
  });
  const seen = new Map<string, PlantMeterEntry>();
  for (const { fields, line } of rows) {
    const [property, point, role] = at.map((i) => (fields[i] ?? '').trim());
    if (fields.length < Math.max(...at) + 1) throw bad(t.fields({ file, line }), line);
    for (const id of [property!, point!]) if (!UUID.test(id)) throw bad(t.notAnId({ file, line, id: id.slice(0, 60) }), line);
    if (!(PLANT_METER_ROLES as readonly string[]).includes(role!)) throw bad(t.notARole({ file, line, role: role!.slice(0, 40) }), line, t.roleHint);
    const entry = { property_id: property!.toLowerCase(), measuring_point_id: point!.toLowerCase(), role: role as PlantMeterRole, line };
    const key = `${entry.property_id} ${entry.measuring_point_id}`;
    const before = seen.get(key);
    if (before && before.role !== entry.role) throw bad(t.twice({ file, line, first: before.line }), line, t.roleHint);
    if (!before) seen.set(key, entry);
  }
  return { file, entries: [...seen.values()] };
}
