// Learned absolute position tables (posenc/learned.py): one trainable row per position, rows
// 0 … rows − 1, so a table has rows × width parameters and no row past its end.
import { context, count, position } from "./_check.js";

/** Whether position p has a row in a table of `rows` rows (posenc.learned.has_row). */
export function hasRow(rows, p) {
  context("rows", rows);
  return position("p", p) < rows;
}

/** rows × width: the table's parameters (posenc.learned.table_parameters). */
export function tableParameters(rows, width) {
  return context("rows", rows) * count("width", width);
}
