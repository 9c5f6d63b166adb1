// The CSV format: one file per table of the template, written as rows arrive (csv-writer.ts).
import type { OutputFormat } from '../../format.js';

export const csvFormat = {
  name: 'csv',
  label: 'CSV',
  finalNames: (template) => template.files.map((f) => f.file),
  placeOf: (file, written) => (written.some((w) => w.name === file.file) ? file.file : null),
  open: async (ctx) => (await import('./sinks.js')).openCsv(ctx),
} as const satisfies OutputFormat<'csv'>;
