import { PgHarvestLock } from './pg/pg-harvest-lock.ts';

/**
 * The lock that elects one harvester among nodes sharing a PostgreSQL database (issue 13), as the server
 * sees it: held until released or lost. Its engine is store/pg/pg-harvest-lock.ts.
 */
export interface HarvestLock {
  /** One round trip on the lock's connection; a broken one reports the loss (and rejects). */
  check(): Promise<void>;
  release(): Promise<void>;
}

/** The lock if no other node holds it, else null; `onLost` fires once if it is lost while held. */
export function tryHarvestLock(
  databaseUrl: string,
  onLost: (why: string) => void,
): Promise<HarvestLock | null> {
  return PgHarvestLock.tryAcquire(databaseUrl, onLost);
}
