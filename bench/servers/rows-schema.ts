/** The row-store benchmarks' app schema: a `project` resource owning a `tasks` table (bench/rows.ts, bench/scale.ts). */
import { TEST_SCHEMA } from '../../test/helpers/app.js';

const col = (type: string, extra: Record<string, unknown> = {}) => ({ type, notNull: false, unique: false, ...extra });

export const ROWS_BENCH_SCHEMA = {
  version: 1,
  tables: {
    tasks: {
      columns: { title: col('text', { notNull: true }), priority: col('integer'), done: col('boolean', { notNull: true, default: false }) },
      timestamps: true,
      indexes: [['createdAt'], ['priority']],
      access: null,
      onOwnerDelete: 'remove',
      ownedBy: 'project',
    },
  },
  resources: { project: { ...TEST_SCHEMA.resources.team, owns: [{ table: 'tasks', access: null }] } },
};
