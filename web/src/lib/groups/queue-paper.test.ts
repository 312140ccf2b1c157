import { checkSnapshot } from '@quire/core/group';
import { describe, expect, it } from 'vitest';
import { fullSnapshot, isFullPaper, partialSnapshot } from './queue-paper.ts';

const card = {
  id: '2604.01234',
  title: 'Step-level credit assignment',
  authors: [{ name: 'Ada Lovelace', affiliations: [] }],
  listingDate: '2026-04-14',
  primaryCategory: 'cs.LG',
};

const full = {
  ...card,
  abstract: 'We assign credit per step.',
  categories: ['cs.LG', 'cs.AI'],
  versions: [
    { version: 1, submitted: '2026-04-10' },
    { version: 2, submitted: '2026-04-12' },
  ],
  links: { abs: 'https://arxiv.org/abs/2604.01234', pdf: 'https://arxiv.org/pdf/2604.01234' },
  codeLinks: ['https://github.com/a/b'],
  tags: [{ slug: 'rl', name: 'Reinforcement Learning' }],
};

describe('queue snapshots', () => {
  it('takes everything from a full paper, tags and latest version included', () => {
    expect(isFullPaper(card)).toBe(false);
    expect(fullSnapshot(card)).toBeNull();
    const snapshot = fullSnapshot(full);
    expect(snapshot).toMatchObject({
      version: 2,
      abstract: 'We assign credit per step.',
      tags: [{ slug: 'rl', name: 'Reinforcement Learning' }],
      codeLinks: ['https://github.com/a/b'],
    });
  });

  it('makes a valid snapshot from a list entry alone, with arXiv’s links', () => {
    const snapshot = partialSnapshot(card);
    expect(snapshot).toMatchObject({
      id: '2604.01234',
      version: null,
      authors: ['Ada Lovelace'],
      categories: ['cs.LG'],
      links: { abs: expect.stringContaining('2604.01234') as string },
    });
    expect(() => checkSnapshot(snapshot)).not.toThrow();
  });
});
