import { Injectable, Optional } from '@nestjs/common';
import { ReadReplica, lagTolerantPool } from '@libs/database';
import type { Pool } from 'pg';
import { DataSource } from 'typeorm';
import { preparedQuery } from '@libs/sql';
import type { Sql } from './answer-filter';

/** Runs the library's read statements on the read models, as named (prepared) statements: their shapes are few, every value a parameter. */
@Injectable()
export class Reads {
  private readonly pool: Pool;

  constructor(dataSource: DataSource, @Optional() replica?: ReadReplica) {
    // Lag-tolerant: the replica's pool when DATABASE_READ_URL is set.
    this.pool = lagTolerantPool(dataSource, replica);
  }

  rows<T>(sql: Sql): Promise<T[]> {
    return preparedQuery(this.pool, sql.text, sql.params) as Promise<T[]>;
  }
}
