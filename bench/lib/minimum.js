// The fewest requests the contract allows for a full export of the sandbox data set the
// auto-consent connection sees (every Property of the first tenant): property pages +
// unit pages + one consumption per unit + measuring-point pages per Property + one
// readings call per plant-room/main point, pages of at most 200 (spec "Limits"). The
// one /whoami the spec requires after the token issue is listed separately.
import { generateDataset } from '../../dist/sandbox/data/index.js';

const PAGE = 200;
const pages = (n) => Math.max(1, Math.ceil(n / PAGE));

export function minimumRequests({ units, seed = 'bench' }) {
  const ds = generateDataset({ seed, units });
  const tenant = ds.tenants()[0];
  const props = ds.properties(tenant.id);
  const m = { properties: pages(props.length), unit_pages: 0, consumption: 0, point_pages: 0, plant_readings: 0, units_in_scope: 0 };
  for (const p of props) {
    const n = p.unitEnd - p.unitStart;
    m.unit_pages += pages(n);
    m.consumption += n;
    m.units_in_scope += n;
    const pts = ds.pointsOfProperty(p);
    m.point_pages += pages(pts.length);
    m.plant_readings += pts.filter((pt) => pt.allocations.length === 0).length;
  }
  m.total = m.properties + m.unit_pages + m.consumption + m.point_pages + m.plant_readings;
  return m;
}
