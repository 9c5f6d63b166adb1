// uvi.csv / uvi.json rows and the letters' review rows (pure), with their columns and layouts.
export { UVI_FILES, UVI_TABLES, uviColumns, type ColumnSpec, type UviColumn, type UviColumnType, type UviTable } from './columns.js';
export { REVIEW_CODES, uviReviewRows, uviRows, type PortalProperty, type PortalUnit, type ReviewCode, type UviReviewRow, type UviRow } from './rows.js';
export { uviFlagMessage } from './findings.js';
