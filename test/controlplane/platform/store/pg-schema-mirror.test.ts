// The PostgreSQL schema mirrors the SQLite one: the same tables, columns (by SQL name),
// nullability, primary keys and indexes, so one repository contract fits both stores. A column
// added to one schema only fails here.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type PgTable, getTableConfig as pgTable } from 'drizzle-orm/pg-core';
import { type SQLiteTable, getTableConfig as sqliteTable } from 'drizzle-orm/sqlite-core';
import * as pgSchema from '../../../../controlplane/src/platform/store/pg/schema.js';
import * as sqliteSchema from '../../../../controlplane/src/platform/store/schema.js';

type Config = ReturnType<typeof pgTable> | ReturnType<typeof sqliteTable>;

function shape(config: Config) {
  return {
    name: config.name,
    columns: config.columns
      .map(
        (column) =>
          `${column.name}${column.notNull ? ' not null' : ''}${column.primary ? ' pk' : ''}`,
      )
      .sort(),
    indexes: config.indexes
      .map((index) => {
        const { name, unique, columns } = index.config;
        const on = columns.map((column) => ('name' in column ? column.name : '?')).join(',');
        return `${unique ? 'unique ' : ''}${name}(${on})`;
      })
      .sort(),
    foreignKeys: config.foreignKeys.length,
  };
}

describe('the PostgreSQL schema', () => {
  it('has the same tables as the SQLite schema, each with the same columns and indexes', () => {
    const pg = Object.values(pgSchema).map((table) => shape(pgTable(table as PgTable)));
    const sqlite = Object.values(sqliteSchema).map((table) =>
      shape(sqliteTable(table as SQLiteTable)),
    );
    const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
    assert.deepEqual(pg.sort(byName), sqlite.sort(byName));
  });
});
