// exceljs' streaming workbook writer on its own: the package's main module also loads the
// reader, CSV support and more, about 13 MB of resident memory the export never uses.
// The class is the one `ExcelJS.stream.xlsx.WorkbookWriter` names.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type ExcelJS from 'exceljs';
  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}

// The pieces of exceljs the direct row writer (xlsx-rows.ts) shares with exceljs' own rows,
// so both escape text, number dates and name columns the same way.
declare module 'exceljs/lib/utils/utils.js' {
  const utils: { xmlEncode(text: string): string; dateToExcel(d: Date, date1904?: boolean): number };
  export default utils;
}
declare module 'exceljs/lib/utils/col-cache.js' {
  const colCache: { n2l(n: number): string };
  export default colCache;
}
declare module 'exceljs/lib/doc/enums.js' {
  const Enums: { ValueType: { Null: number; Number: number; String: number; Date: number } };
  export default Enums;
}
declare module 'exceljs/lib/xlsx/xform/style/styles-xform.js' {
  import type ExcelJS from 'exceljs';
  /** exceljs' style registry, as a workbook writer makes it (`new StylesXform(true)`). */
  class StylesXform {
    constructor(initialise?: boolean);
    addStyleModel(style: Partial<ExcelJS.Style>, cellType?: number): number;
  }
  export default StylesXform;
}
