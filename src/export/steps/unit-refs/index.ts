// --unit-refs FILE (refs.ts): billing.csv and the Overview carry each unit's erp_ref; a unit
// without one, two units sharing one and, after every Property, lines for units the export
// did not have are findings; the About sheet names the file.
import type { ExportStep } from '../../pipeline/index.js';
import { aboutTexts } from '../../output/index.js';
import { MAX_UNKNOWN_LISTED, unitRefCodes, unitRefIndex, withUnitRefs, type UnitRefs } from './refs.js';

const UNKNOWN = 'UNIT_REF_UNKNOWN' satisfies keyof typeof unitRefCodes;

export { unitRefCodes, parseUnitRefs, readUnitRefs, unitRefIndex, withUnitRefs, type UnitRefIndex, type UnitRefs } from './refs.js';

export function unitRefsStep(refs: UnitRefs): ExportStep {
  const index = unitRefIndex(refs);
  const shape = { billing: index.withRef, units: index.withRef };
  return {
    template: (template) => withUnitRefs(template, refs),
    shape: () => shape,
    early: () => shape,
    findings: ({ answers }) => ({
      flags: index.flags(
        answers.property.id,
        answers.units.map((u) => u.unit.id),
      ),
    }),
    finish: () => index.unknown(),
    unlisted: () => {
      const beyond = index.unknownCount() - MAX_UNKNOWN_LISTED;
      // a finding's code (unitRefCodes), not an error's
      return beyond > 0 ? [{ code: UNKNOWN, severity: unitRefCodes[UNKNOWN], count: beyond }] : [];
    },
    about: () => {
      const unknown = index.unknownCount();
      const value = aboutTexts.unitRefsValue({ file: refs.file, n: refs.entries.length });
      const more = unknown > MAX_UNKNOWN_LISTED ? aboutTexts.unitRefsUnknown({ n: unknown, listed: MAX_UNKNOWN_LISTED }) : '';
      return { facts: [[aboutTexts.unitRefs, `${value}${more}`]] };
    },
  };
}
