import { describe, expect, it } from 'vitest';
import { ROOT } from './group-doc.ts';
import { getQueueItem, saveToQueue, setQueueStatus } from './queue.ts';
import { at, codeOf, newDoc, pair, paper, sync } from './test-helpers.ts';
import { recordLatestVersion, versionChangeOf } from './version-change.ts';

describe('version-change flag', () => {
  it('flags a newer version than the one saved', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234', { version: 1 }), 'ada', at('2026-03-10T09:00:00Z'));
    expect(versionChangeOf(doc, '2603.01234')).toEqual({
      savedVersion: 1,
      discussedVersion: null,
      latestVersion: 1,
      baselineVersion: 1,
      hasNewerVersion: false,
    });
    expect(recordLatestVersion(doc, '2603.01234', 2, at('2026-03-12T09:00:00Z'))).toBe(true);
    expect(recordLatestVersion(doc, '2603.01234', 2, at('2026-03-13T09:00:00Z'))).toBe(false);
    expect(versionChangeOf(doc, '2603.01234')).toMatchObject({ latestVersion: 2, hasNewerVersion: true });
  });

  it('compares with the version discussed once the group has discussed the paper', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234', { version: 1 }), 'ada', at('2026-03-10T09:00:00Z'));
    recordLatestVersion(doc, '2603.01234', 2, at('2026-03-12T09:00:00Z'));
    setQueueStatus(doc, '2603.01234', 'discussed', 'bob', at('2026-03-13T18:00:00Z'));
    expect(versionChangeOf(doc, '2603.01234')).toEqual({
      savedVersion: 1,
      discussedVersion: 2,
      latestVersion: 2,
      baselineVersion: 2,
      hasNewerVersion: false,
    });
    recordLatestVersion(doc, '2603.01234', 3, at('2026-03-20T09:00:00Z'));
    expect(getQueueItem(doc, '2603.01234')?.versions).toMatchObject({
      discussedVersion: 2,
      hasNewerVersion: true,
    });
    // Archiving later does not forget what was discussed.
    setQueueStatus(doc, '2603.01234', 'archived', 'bob', at('2026-03-21T09:00:00Z'));
    expect(versionChangeOf(doc, '2603.01234')).toMatchObject({ discussedVersion: 2, latestVersion: 3 });
  });

  it('keeps the highest version when two peers record different ones offline', () => {
    const [a, b] = pair();
    saveToQueue(a, paper('2603.01234', { version: 1 }), 'ada', at('2026-03-10T09:00:00Z'));
    sync(a, b);
    recordLatestVersion(a, '2603.01234', 3, at('2026-03-12T09:00:00Z'));
    recordLatestVersion(b, '2603.01234', 2, at('2026-03-12T09:05:00Z'));
    sync(a, b);
    expect(versionChangeOf(a, '2603.01234')?.latestVersion).toBe(3);
    expect(versionChangeOf(b, '2603.01234')?.latestVersion).toBe(3);
  });

  it('a refreshed snapshot does not hide that the group saved an older version', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234', { version: 1 }), 'ada', at('2026-03-10T09:00:00Z'));
    saveToQueue(doc, paper('2603.01234', { version: 2 }), 'ada', at('2026-03-12T09:00:00Z'));
    expect(versionChangeOf(doc, '2603.01234')).toMatchObject({
      savedVersion: 1,
      latestVersion: 2,
      hasNewerVersion: true,
    });
  });

  it('ignores papers outside the queue, rejects bad versions and skips garbage keys', () => {
    const doc = newDoc();
    expect(recordLatestVersion(doc, '2603.01234', 2, at('2026-03-12T09:00:00Z'))).toBe(false);
    expect(versionChangeOf(doc, '2603.01234')).toBeNull();
    saveToQueue(doc, paper('2603.01234', { version: null }), 'ada', at('2026-03-10T09:00:00Z'));
    expect(codeOf(() => recordLatestVersion(doc, '2603.01234', 1.5, at('2026-03-12T09:00:00Z')))).toBe(
      'invalid-input',
    );
    doc.getMap(ROOT.paperVersions).set('2603.01234|v9', 'x');
    doc.getMap(ROOT.paperVersions).set('2603.01234|0', 'x');
    expect(versionChangeOf(doc, '2603.01234')).toMatchObject({
      savedVersion: null,
      latestVersion: null,
      hasNewerVersion: false,
    });
  });
});
