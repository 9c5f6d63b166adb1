// What a portfolio's record of finished profiles is keyed by beyond a folder's identity (the
// export's job and the monthly information's): a kept folder must be what this run would write.
import { createHash } from 'node:crypto';
import { language } from '../../i18n/index.js';
import type { ExportArgs } from '../options/index.js';

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** What changes a profile's files beyond its folder's identity: the language of their texts and the --unit-refs content (erp_ref). */
export function filesKey(args: Pick<ExportArgs, 'unitRefs'>): { lang: string; unit_refs: string | null } {
  return { lang: language(), unit_refs: args.unitRefs ? sha256(JSON.stringify(args.unitRefs.entries)) : null };
}
