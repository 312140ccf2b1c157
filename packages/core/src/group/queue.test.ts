import { describe, expect, it } from 'vitest';
import type { PaperEntity } from '../paper.ts';
import { ROOT } from './group-doc.ts';
import { snapshotOfPaper } from './paper-snapshot.ts';
import { getQueueItem, isQueued, listQueue, removeFromQueue, saveToQueue, setQueueStatus } from './queue.ts';
import { sortQueue } from './queue-sort.ts';
import { at, codeOf, newDoc, pair, paper, sync, trio } from './test-helpers.ts';

describe('queue', () => {
  it('saves a paper with its snapshot, who added it and when', () => {
    const doc = newDoc();
    expect(saveToQueue(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'))).toBe(true);
    const item = getQueueItem(doc, 'arXiv:2603.01234');
    expect(item).toMatchObject({
      addedBy: 'ada',
      addedAt: '2026-03-10T09:00:00.000Z',
      savedBy: ['ada'],
      status: 'queued',
      statusBy: null,
      statusAt: null,
    });
    expect(item?.paper).toEqual(paper('2603.01234'));
  });

  it('re-saving keeps one entry and the first adder, and refreshes the snapshot', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    expect(
      saveToQueue(
        doc,
        paper('2603.01234', { title: 'Better title', version: 2 }),
        'bob',
        at('2026-03-11T09:00:00Z'),
      ),
    ).toBe(false);
    saveToQueue(
      doc,
      paper('2603.01234v2', { version: null, title: 'Best title' }),
      'ada',
      at('2026-03-12T09:00:00Z'),
    );
    const queue = listQueue(doc);
    expect(queue).toHaveLength(1);
    expect(queue[0]).toMatchObject({ addedBy: 'ada', savedBy: ['ada', 'bob'] });
    expect(queue[0]?.paper).toMatchObject({ title: 'Best title', version: 2 });
  });

  it('two members saving the same paper offline end up with one entry and the same first adder', () => {
    const [a, b, c] = trio();
    saveToQueue(b, paper('2603.01234'), 'bob', at('2026-03-10T09:00:00Z'));
    saveToQueue(a, paper('2603.01234', { title: 'Ada’s copy' }), 'ada', at('2026-03-10T10:00:00Z'));
    saveToQueue(c, paper('2603.04321'), 'cy', at('2026-03-10T11:00:00Z'));
    sync(a, b, c);
    for (const doc of [a, b, c]) {
      expect(
        listQueue(doc)
          .map((i) => i.paper.id)
          .sort(),
      ).toEqual(['2603.01234', '2603.04321']);
      expect(getQueueItem(doc, '2603.01234')).toMatchObject({ addedBy: 'bob', savedBy: ['bob', 'ada'] });
    }
    expect(getQueueItem(a, '2603.01234')).toEqual(getQueueItem(b, '2603.01234'));
  });

  it('a status change and a snapshot refresh made concurrently both survive', () => {
    const [a, b] = pair();
    saveToQueue(a, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    sync(a, b);
    setQueueStatus(a, '2603.01234', 'reading', 'ada', at('2026-03-11T09:00:00Z'));
    saveToQueue(
      b,
      paper('2603.01234', { title: 'Revised title', version: 2 }),
      'bob',
      at('2026-03-11T09:30:00Z'),
    );
    sync(a, b);
    for (const doc of [a, b]) {
      expect(getQueueItem(doc, '2603.01234')).toMatchObject({
        status: 'reading',
        statusBy: 'ada',
        statusAt: '2026-03-11T09:00:00.000Z',
        paper: { title: 'Revised title', version: 2 },
      });
    }
  });

  it('validates status, ids and snapshots before writing anything', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    let updates = 0;
    doc.on('update', () => (updates += 1));
    const now = at('2026-03-11T09:00:00Z');
    expect(codeOf(() => setQueueStatus(doc, '2603.01234', 'done', 'ada', now))).toBe('invalid-input');
    expect(codeOf(() => setQueueStatus(doc, '2603.09999', 'reading', 'ada', now))).toBe('invalid-input');
    expect(codeOf(() => saveToQueue(doc, paper('2613.01234'), 'ada', now))).toBe('invalid-arxiv-id');
    expect(codeOf(() => saveToQueue(doc, paper('2603.01234', { title: '  ' }), 'ada', now))).toBe(
      'invalid-input',
    );
    expect(
      codeOf(() => saveToQueue(doc, paper('2603.01234', { listingDate: '10/03/2026' }), 'ada', now)),
    ).toBe('invalid-input');
    expect(codeOf(() => saveToQueue(doc, paper('2603.01234', { version: 0 }), 'ada', now))).toBe(
      'invalid-input',
    );
    expect(updates).toBe(0);
  });

  it('removes a paper', () => {
    const doc = newDoc();
    saveToQueue(doc, paper('2603.01234'), 'ada', at('2026-03-10T09:00:00Z'));
    setQueueStatus(doc, '2603.01234', 'archived', 'ada', at('2026-03-10T10:00:00Z'));
    expect(removeFromQueue(doc, '2603.01234')).toBe(true);
    expect(removeFromQueue(doc, '2603.01234')).toBe(false);
    expect(isQueued(doc, '2603.01234')).toBe(false);
    saveToQueue(doc, paper('2603.01234'), 'bob', at('2026-03-12T09:00:00Z'));
    expect(getQueueItem(doc, '2603.01234')).toMatchObject({ addedBy: 'bob', status: 'queued' });
  });

  it('snapshots a paper as the API serves it', () => {
    const entity: PaperEntity & { tags: { slug: string; name: string; score: number }[] } = {
      id: 'hep-th/9901001',
      title: 'Strings',
      abstract: 'An abstract.',
      authors: [{ name: 'E. Witten', affiliations: ['IAS'] }],
      categories: ['hep-th', 'math-ph'],
      primaryCategory: 'hep-th',
      versions: [
        { version: 1, submitted: null, size: null },
        { version: 3, submitted: null, size: null },
      ],
      listingDate: '1999-01-04',
      listingDateEstimated: false,
      submittedV1: null,
      comment: null,
      doi: null,
      journalRef: null,
      license: null,
      links: { abs: 'https://arxiv.org/abs/hep-th/9901001', pdf: 'https://arxiv.org/pdf/hep-th/9901001' },
      codeLinks: ['https://github.com/x/y'],
      tags: [{ slug: 'string-theory', name: 'String Theory', score: 4 }],
    };
    expect(snapshotOfPaper(entity)).toEqual({
      id: 'hep-th/9901001',
      version: 3,
      title: 'Strings',
      authors: ['E. Witten'],
      abstract: 'An abstract.',
      links: { abs: 'https://arxiv.org/abs/hep-th/9901001', pdf: 'https://arxiv.org/pdf/hep-th/9901001' },
      primaryCategory: 'hep-th',
      categories: ['hep-th', 'math-ph'],
      listingDate: '1999-01-04',
      tags: [{ slug: 'string-theory', name: 'String Theory' }],
      codeLinks: ['https://github.com/x/y'],
    });
  });

  it('does not trust link targets a peer wrote', () => {
    const doc = newDoc();
    doc.getMap(ROOT.queue).set('2603.01234', {
      paper: {
        ...paper('2603.01234'),
        links: { abs: 'javascript:alert(1)', pdf: 'https://arxiv.org/pdf/2603.01234' },
        codeLinks: ['javascript:alert(2)', 'https://github.com/a/b'],
      },
      by: 'eve',
      at: '2026-03-10T09:00:00Z',
    });
    expect(getQueueItem(doc, '2603.01234')?.paper).toMatchObject({
      links: { abs: 'https://arxiv.org/abs/2603.01234', pdf: 'https://arxiv.org/pdf/2603.01234' },
      codeLinks: ['https://github.com/a/b'],
    });
  });
});

describe('queue sorting', () => {
  function sample() {
    const doc = newDoc();
    saveToQueue(
      doc,
      paper('2603.00001', { title: 'beta', listingDate: '2026-03-02' }),
      'ada',
      at('2026-03-10T09:00:00Z'),
    );
    saveToQueue(
      doc,
      paper('2603.00002', { title: 'Alpha', listingDate: null }),
      'ada',
      at('2026-03-12T09:00:00Z'),
    );
    saveToQueue(
      doc,
      paper('2603.00003', { title: 'Ápex', listingDate: '2026-03-05' }),
      'ada',
      at('2026-03-11T09:00:00Z'),
    );
    saveToQueue(
      doc,
      paper('2603.00004', { title: 'gamma', listingDate: '2026-03-05' }),
      'ada',
      at('2026-03-09T09:00:00Z'),
    );
    setQueueStatus(doc, '2603.00001', 'reading', 'ada', at('2026-03-13T09:00:00Z'));
    setQueueStatus(doc, '2603.00002', 'archived', 'ada', at('2026-03-13T09:00:00Z'));
    setQueueStatus(doc, '2603.00004', 'discussed', 'ada', at('2026-03-13T09:00:00Z'));
    return listQueue(doc);
  }
  const order = (items: { paper: { id: string } }[]) => items.map((i) => i.paper.id.slice(-1));

  it('sorts by added (newest first), status, title and listing date', () => {
    const items = sample();
    expect(order(sortQueue(items, 'added'))).toEqual(['2', '3', '1', '4']);
    expect(order(sortQueue(items, 'status'))).toEqual(['1', '3', '4', '2']);
    expect(order(sortQueue(items, 'title'))).toEqual(['2', '3', '1', '4']);
    expect(order(sortQueue(items, 'listingDate'))).toEqual(['4', '3', '1', '2']);
    expect(codeOf(() => sortQueue(items, 'random' as 'added'))).toBe('invalid-input');
  });
});
