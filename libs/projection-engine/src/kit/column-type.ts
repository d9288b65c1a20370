/** A column's PostgreSQL type, as `json_to_recordset` reads it from the JSON row. */
export type ColumnType = 'bigint' | 'integer' | 'smallint' | 'float8' | 'numeric' | 'text' | 'boolean' | 'timestamptz' | 'date' | 'uuid' | 'jsonb' | 'text[]' | 'boolean[]';
