import type { ComponentChildren } from 'preact';

/** One column: its header, and what a row shows under it. */
export interface Column<Row> {
  readonly header: string;
  readonly cell: (row: Row) => ComponentChildren;
  /** The cells' class: `amount` aligns figures, `actions` holds a row's buttons. */
  readonly class?: string;
}

/**
 * Rows under column headers, the one table shape every page uses. `rowClass` marks a row (the
 * selected one); `labelledBy` names the table after a heading outside it.
 */
export function DataTable<Row>(props: {
  columns: readonly Column<Row>[];
  rows: readonly Row[] | undefined;
  keyOf: (row: Row) => string | number;
  rowClass?: (row: Row) => string;
  labelledBy?: string;
}) {
  return (
    <table aria-labelledby={props.labelledBy}>
      <thead>
        <tr>
          {props.columns.map((column) => (
            <th key={column.header} scope="col">
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {props.rows?.map((row) => (
          <tr key={props.keyOf(row)} class={props.rowClass?.(row)}>
            {props.columns.map((column) => (
              <td key={column.header} class={column.class}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </table>
  );
}
