import { customType, timestamp } from 'drizzle-orm/pg-core';

// Millisecond precision matches the API's ISO strings exactly, so a timestamp read back equals the one written.
export const ts = (name: string) => timestamp(name, { withTimezone: true, precision: 3, mode: 'date' });

export const tsvector = customType<{ data: string }>({ dataType: () => 'tsvector' });

// Exact token amounts in base units can exceed 2^64; numeric keeps them exact and drizzle maps them to strings.
export const units = customType<{ data: bigint; driverData: string }>({
  dataType: () => 'numeric(78, 0)',
  toDriver: (v) => v.toString(),
  fromDriver: (v) => BigInt(v),
});

// PostgreSQL's 64-bit transaction id; read as a decimal string, compared in SQL only.
export const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => 'xid8' });
