// exceljs' streaming workbook writer on its own: the package's main module also loads the
// reader, CSV support and more, about 13 MB of resident memory the export never uses.
// The class is the one `ExcelJS.stream.xlsx.WorkbookWriter` names.
declare module 'exceljs/lib/stream/xlsx/workbook-writer.js' {
  import type ExcelJS from 'exceljs';
  const WorkbookWriter: typeof ExcelJS.stream.xlsx.WorkbookWriter;
  export default WorkbookWriter;
}
