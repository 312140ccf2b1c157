/**
 * The layout of a group's one Yjs document.
 *
 * Every part lives in a root-level shared type. Root types merge by name across peers, whereas a nested type
 * created under a map key by two offline peers keeps only one of them (the other's content is silently lost).
 * So per-paper collaborative parts are root types named after the paper (`note:<id>`, `comments:<id>`), and
 * everything else is plain JSON in flat Y.Maps whose keys are chosen so that concurrent writers mostly write
 * different keys (`<week>|<member>|<paper>` for a vote), which merge without loss.
 *
 * Values come from peers and may be malformed: readers validate every entry and skip what they cannot read.
 */
import * as Y from 'yjs';
import { CoreError } from '../errors.ts';

/** Bump when the layout changes incompatibly; older apps then refuse to write (they can still read). */
export const GROUP_SCHEMA_VERSION = 1;

/**
 * The transaction origin of every write made here, so a client can tell these apart (e.g. add it to an
 * UndoManager's `trackedOrigins`). A write made inside the caller's own `doc.transact` keeps the caller's.
 */
export const GROUP_ORIGIN = 'quire:group';

/** The root-level Y.Maps. Keys are joined with "|", which no id, slug, week or member id may contain. */
export const ROOT = {
  /** schemaVersion, votesPerMember. */
  meta: 'meta',
  /** memberId → { name, colour, joinedAt }. */
  members: 'members',
  /** topic slug → { by, at }. */
  followedTopics: 'followedTopics',
  /** `<id>|name`, `<id>|created`, `<id>|phrase|<phrase>`, `<id>|exemplar|<arXiv id>` → per-field values. */
  customTopics: 'customTopics',
  /** memberId → ISO time the member last looked at the inbox. */
  inboxLooked: 'inboxLooked',
  /** paperId → { decision, by, at }. */
  inboxTriage: 'inboxTriage',
  /** paperId → { paper: snapshot, by, at } (the last save); presence in the queue. */
  queue: 'queue',
  /** `<paperId>|<memberId>` → { at, version }: every member who saved it, first save each. */
  queueAdds: 'queueAdds',
  /** paperId → { status, by, at }; apart from the snapshot so a refresh never undoes a status change. */
  queueStatus: 'queueStatus',
  /** paperId → { version, by, at }: the arXiv version the group discussed. */
  queueDiscussed: 'queueDiscussed',
  /** `<paperId>|<version>` → ISO time first seen: a grow-only set, so the highest version always survives. */
  paperVersions: 'paperVersions',
  /** `<week>|<paperId>|<memberId>` → ISO time nominated. */
  pickNominations: 'pickNominations',
  /** `<week>|<memberId>|<paperId>` → ISO time the vote was cast. */
  pickVotes: 'pickVotes',
  /** `<week>|deadline` → ISO; `<week>|pick` → closed pick; `<week>|discussed` → { by, at }. */
  pickWeeks: 'pickWeeks',
  /** The meeting: `timeZone`, `weekly`, `lead`, `rotation`, `date|<day>`, `cancel|<day>`, `skip|<day>|<member>`. */
  meetings: 'meetings',
} as const;

export type RootName = (typeof ROOT)[keyof typeof ROOT];

/** Root Y.Text with a paper's Markdown notes. */
export const NOTE_PREFIX = 'note:';
/** Root Y.Map commentId → comment of a paper. */
export const COMMENTS_PREFIX = 'comments:';

export const KEY_SEPARATOR = '|';

export function rootMap(doc: Y.Doc, name: RootName): Y.Map<unknown> {
  return doc.getMap<unknown>(name);
}

/** A new document, with a stored or received state applied when given. */
export function createGroupDoc(state?: Uint8Array): Y.Doc {
  const doc = new Y.Doc();
  if (state) Y.applyUpdate(doc, state);
  return doc;
}

/** The schema version stored in the document; null for a document nobody has written yet (or garbage). */
export function groupSchemaVersion(doc: Y.Doc): number | null {
  const value = rootMap(doc, ROOT.meta).get('schemaVersion');
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 ? value : null;
}

/** True when this code can write the document: it is new or has a schema version this code knows. */
export function canWriteGroupDoc(doc: Y.Doc): boolean {
  const version = groupSchemaVersion(doc);
  return version === null || version <= GROUP_SCHEMA_VERSION;
}

/** Stamps the schema version on a new document. Every write does this too; calling it is optional. */
export function initGroupDoc(doc: Y.Doc): void {
  writeGroup(doc, () => undefined);
}

/**
 * Runs `write` in one transaction with GROUP_ORIGIN and stamps the schema version. Yjs keeps what a
 * transaction wrote before an exception, so callers validate everything before calling this and `write`
 * only writes.
 */
export function writeGroup<T>(doc: Y.Doc, write: () => T): T {
  if (!canWriteGroupDoc(doc)) {
    throw new CoreError(
      'invalid-input',
      `This group was last written by a newer version of Quire (document schema ${String(groupSchemaVersion(doc))}, ` +
        `this app knows ${GROUP_SCHEMA_VERSION}); update the app before editing the group.`,
    );
  }
  let result: T | undefined;
  doc.transact(() => {
    const meta = rootMap(doc, ROOT.meta);
    if (meta.get('schemaVersion') === undefined) meta.set('schemaVersion', GROUP_SCHEMA_VERSION);
    result = write();
  }, GROUP_ORIGIN);
  return result as T;
}

export function joinKey(...parts: string[]): string {
  return parts.join(KEY_SEPARATOR);
}

/** The parts of a key written by `joinKey`; null when the count is wrong (a peer wrote something else). */
export function splitKey(key: string, count: number): string[] | null {
  const parts = key.split(KEY_SEPARATOR);
  if (parts.length < count) return null;
  // Only the last part may hold the separator (a custom topic phrase may).
  return [...parts.slice(0, count - 1), parts.slice(count - 1).join(KEY_SEPARATOR)];
}
