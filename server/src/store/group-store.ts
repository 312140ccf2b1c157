import type { Database, Statement } from 'better-sqlite3';
import {
  INSERT_INVITE,
  insertInviteValues,
  type InsertInviteValues,
  type InviteRow,
} from './invite-store.ts';
import { settled } from './settled.ts';

export interface GroupEntity {
  id: string;
  name: string;
  createdAt: string;
}

const INSERT_GROUP = `INSERT INTO groups (id, name, created_at) VALUES (?, ?, ?)`;
const SELECT_GROUP = `SELECT id, name, created_at AS createdAt FROM groups WHERE id = ?`;

/** Reading groups. A group and its first invites are written together, so none exists without a way in. */
export interface GroupStore {
  create(group: GroupEntity, invites: readonly InviteRow[]): Promise<void>;
  get(id: string): Promise<GroupEntity | null>;
}

export class SqliteGroupStore implements GroupStore {
  readonly #selectGroup: Statement<[string], GroupEntity>;
  readonly #create: (group: GroupEntity, invites: readonly InviteRow[]) => void;

  constructor(db: Database) {
    const insertGroup = db.prepare<[string, string, string]>(INSERT_GROUP);
    const insertInvite = db.prepare<InsertInviteValues>(INSERT_INVITE);
    this.#selectGroup = db.prepare(SELECT_GROUP);
    this.#create = db.transaction((group: GroupEntity, invites: readonly InviteRow[]) => {
      insertGroup.run(group.id, group.name, group.createdAt);
      for (const i of invites) insertInvite.run(...insertInviteValues(group.id, i));
    });
  }

  create(group: GroupEntity, invites: readonly InviteRow[]): Promise<void> {
    return settled(() => this.#create(group, invites));
  }

  get(id: string): Promise<GroupEntity | null> {
    return settled(() => this.#selectGroup.get(id) ?? null);
  }
}
