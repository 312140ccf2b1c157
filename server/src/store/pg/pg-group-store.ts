import type { GroupEntity, GroupStore } from '../group-store.ts';
import { insertInviteValues, type InviteRow } from '../invite-store.ts';
import { INSERT_INVITE } from './pg-invite-store.ts';
import { inTransaction, type PgPool } from './pg-pool.ts';

const INSERT_GROUP = `INSERT INTO groups (id, name, created_at) VALUES ($1, $2, $3)`;
const SELECT_GROUP = `SELECT id, name, created_at AS "createdAt" FROM groups WHERE id = $1`;

/** Reading groups on PostgreSQL; a group and its first invites commit together, as on SQLite. */
export class PgGroupStore implements GroupStore {
  constructor(private readonly pool: PgPool) {}

  async create(group: GroupEntity, invites: readonly InviteRow[]): Promise<void> {
    await inTransaction(this.pool, async (client) => {
      await client.query(INSERT_GROUP, [group.id, group.name, group.createdAt]);
      for (const i of invites) await client.query(INSERT_INVITE, insertInviteValues(group.id, i));
    });
  }

  async get(id: string): Promise<GroupEntity | null> {
    const { rows } = await this.pool.query<GroupEntity>(SELECT_GROUP, [id]);
    return rows[0] ?? null;
  }
}
