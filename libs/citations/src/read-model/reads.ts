import { Injectable } from '@nestjs/common';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { poolOf, preparedQuery } from '@libs/sql';
import type { Sql } from './answer-filter';

/** Runs the library's read statements on the read models, as named (prepared) statements: their shapes are few, every value a parameter. */
@Injectable()
export class Reads {
  private readonly pool: Pool;

  constructor(dataSource: DataSource) {
    this.pool = poolOf(dataSource);
  }

  rows<T>(sql: Sql): Promise<T[]> {
    return preparedQuery(this.pool, sql.text, sql.params) as Promise<T[]>;
  }
}
