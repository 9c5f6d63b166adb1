// `e`: the export runs beside the screens; its end (where the files went, or why not)
// comes back as an action for the status line, and so does what it has to say on the way (a wait for another run).
import { useCallback } from 'react';
import type { BrowseData, ExportSelection } from './data.js';
import { describeError } from './errors.js';
import type { Action } from './state.js';
import { t } from './texts.js';

export function useExport(data: BrowseData, dispatch: (a: Action) => void): (s: ExportSelection) => void {
  return useCallback(
    (selection: ExportSelection) => {
      if (!data.exportSelection) return;
      data
        .exportSelection(selection, (line) => dispatch({ type: 'export-note', message: line.trim() }))
        .then(
          (where) => dispatch({ type: 'export-ended', message: t.exported({ where }) }),
          (e: unknown) => dispatch({ type: 'export-ended', message: t.exportFailed({ message: describeError(e, selection.range).message }) }),
        );
    },
    [data, dispatch],
  );
}
