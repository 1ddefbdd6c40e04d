import * as drizzle from 'drizzle-orm';
import { Column, getTableName, is, noopDecoder, SQL, Subquery } from 'drizzle-orm';

// Drizzle's own (internal, not in its types): the selection's fields in the order its SQL selects
// them, each with its path in the row's shape. The order must be the one the SQL was built with.
const { orderSelectedFields } = drizzle as unknown as {
  orderSelectedFields(fields: Record<string, unknown>): { path: string[]; field: unknown }[];
};

interface Decoder {
  mapFromDriverValue(value: unknown): unknown;
}

/** A drizzle selection's field: a column, an `sql` expression, an aliased one or a subquery. */
function decoderOf(field: unknown): Decoder {
  if (is(field, Column)) return field as Decoder;
  // `decoder` is drizzle's own (internal) per-field mapper: what `sql<T>`.mapWith() sets.
  if (is(field, SQL)) return (field as unknown as { decoder: Decoder }).decoder;
  if (is(field, Subquery)) return (field as unknown as { _: { sql: { decoder: Decoder } } })._.sql.decoder;
  if (is(field, SQL.Aliased)) return (field.sql as unknown as { decoder: Decoder }).decoder;
  throw new Error('rowMapper: a field that is not a column, sql, aliased sql or subquery');
}

interface Slot {
  /** The objects above the value (`{ bounty: { id } }`: ['bounty']); empty for a flat selection. */
  parents: string[];
  key: string;
  /** null when the driver's value is the row's (text, booleans, timestamps as text): no call. */
  decoder: Decoder | null;
  /** A joined table's column one level down: the table whose nulls may make its object null. */
  table: string | undefined;
}

/**
 * Drizzle's row mapping (`mapResultRow`: a row of values, in the order `orderSelectedFields`
 * gives, into the selection's shape, nested objects included; an object of a left-joined table
 * whose columns are all null becomes null) with everything it decides per value, each field's
 * decoder and table (an `is()` walk up the prototype chain apiece), decided once per selection.
 * `joinsNotNullableMap` is the select builder's own, as drizzle's prepared query is given it.
 */
export function rowMapper<Row>(
  fields: Record<string, unknown>,
  joinsNotNullableMap?: Record<string, boolean>,
): (values: unknown[]) => Row {
  const slots: Slot[] = orderSelectedFields(fields).map(({ path, field }) => {
    const decoder = decoderOf(field);
    const identity =
      decoder.mapFromDriverValue === Column.prototype.mapFromDriverValue ||
      decoder.mapFromDriverValue === noopDecoder.mapFromDriverValue;
    return {
      parents: path.slice(0, -1),
      key: path[path.length - 1] as string,
      decoder: identity ? null : decoder,
      table:
        joinsNotNullableMap && is(field, Column) && path.length === 2
          ? getTableName((field as Column).table)
          : undefined,
    };
  });
  const width = slots.length;
  const decoded = (slot: Slot, raw: unknown) =>
    raw === null || slot.decoder === null ? raw : slot.decoder.mapFromDriverValue(raw);

  if (slots.every((s) => s.parents.length === 0)) {
    const keys = slots.map((s) => s.key);
    return (values) => {
      const row: Record<string, unknown> = {};
      for (let i = 0; i < width; i++) row[keys[i] as string] = decoded(slots[i] as Slot, values[i]);
      return row as Row;
    };
  }

  return (values) => {
    const row: Record<string, unknown> = {};
    // Per object one level down: the table all of its values so far were null from, or false.
    let nullify: Record<string, string | false> | undefined;
    for (let i = 0; i < width; i++) {
      const slot = slots[i] as Slot;
      let node = row;
      for (const name of slot.parents) {
        if (!(name in node)) node[name] = {};
        node = node[name] as Record<string, unknown>;
      }
      const value = decoded(slot, values[i]);
      node[slot.key] = value;
      if (slot.table === undefined) continue;
      const object = slot.parents[0] as string;
      nullify ??= {};
      if (!(object in nullify)) nullify[object] = value === null ? slot.table : false;
      else if (typeof nullify[object] === 'string' && nullify[object] !== slot.table) nullify[object] = false;
    }
    if (nullify && joinsNotNullableMap)
      for (const [object, table] of Object.entries(nullify))
        if (typeof table === 'string' && !joinsNotNullableMap[table]) row[object] = null;
    return row as Row;
  };
}
