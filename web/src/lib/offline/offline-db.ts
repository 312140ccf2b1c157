/**
 * The offline database: a thin promise layer over IndexedDB, nothing more. What is kept and when it goes
 * is decided in offline-data.ts and cache-rules.ts.
 */

export const DB_NAME = 'quire-offline';
const DB_VERSION = 1;

/** Paper records `{ id, paper, storedAt }`, keyed by id, indexed by `storedAt`. */
export const PAPERS = 'papers';
/** Topic records `{ slug, topic, storedAt }`, keyed by slug, indexed by `storedAt`. */
export const TOPICS = 'topics';
/** Single values under fixed keys (`META_KEYS`). */
export const META = 'meta';
export const BY_STORED_AT = 'storedAt';

export const META_KEYS = {
  topicList: 'topic-list',
  searchIndex: 'search-index',
} as const;

function upgrade(db: IDBDatabase): void {
  if (!db.objectStoreNames.contains(PAPERS)) {
    db.createObjectStore(PAPERS, { keyPath: 'id' }).createIndex(BY_STORED_AT, BY_STORED_AT);
  }
  if (!db.objectStoreNames.contains(TOPICS)) {
    db.createObjectStore(TOPICS, { keyPath: 'slug' }).createIndex(BY_STORED_AT, BY_STORED_AT);
  }
  if (!db.objectStoreNames.contains(META)) db.createObjectStore(META);
}

/**
 * Opens the database, or answers null when this browser will not give one (no IndexedDB, a private
 * window that refuses it): the app then simply works without an offline copy.
 */
export function openOfflineDb(): Promise<IDBDatabase | null> {
  if (typeof indexedDB === 'undefined') return Promise.resolve(null);
  return new Promise((resolve) => {
    let req: IDBOpenDBRequest;
    try {
      req = indexedDB.open(DB_NAME, DB_VERSION);
    } catch {
      resolve(null);
      return;
    }
    req.onupgradeneeded = () => upgrade(req.result);
    req.onsuccess = () => {
      const db = req.result;
      // A newer build in another tab wants to upgrade: let it, rather than block it forever.
      db.onversionchange = () => db.close();
      resolve(db);
    };
    req.onerror = () => resolve(null);
    req.onblocked = () => resolve(null);
  });
}

export function result<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error ?? new Error('An IndexedDB request failed.'));
  });
}

/** Resolves when the transaction has committed: only then is a write durable. */
export function committed(tx: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    tx.oncomplete = () => resolve();
    tx.onerror = () => reject(tx.error ?? new Error('An IndexedDB transaction failed.'));
    tx.onabort = () => reject(tx.error ?? new Error('An IndexedDB transaction was aborted.'));
  });
}
