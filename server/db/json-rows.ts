import { getTableColumns, type Table } from "drizzle-orm";

/**
 * A table's rows as `json_agg(<row>)` returns them inside a larger select (keys are the column names, times ISO
 * text), mapped as drizzle maps the rows of an ordinary select of that table: property names, `Date`s. For reads
 * that fold a parent and its children into one statement (issue 26: statements per request). `null` (an
 * aggregate over no rows) is no rows.
 */
export function rowsFromJson<T extends Table>(table: T, rows: readonly Record<string, unknown>[] | null): T["$inferSelect"][] {
  const columns = Object.entries(getTableColumns(table));
  return (rows ?? []).map(
    (json) =>
      Object.fromEntries(
        columns.map(([key, column]) => {
          const value = json[column.name];
          return [key, value === null || value === undefined ? null : column.mapFromDriverValue(value)];
        }),
      ) as T["$inferSelect"],
  );
}
