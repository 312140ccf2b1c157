import { describe, expect, it } from 'vitest';
import { ROOT } from './group-doc.ts';
import { followTopic, isFollowing, listFollowedTopics, unfollowTopic } from './followed-topics.ts';
import { at, codeOf, newDoc, pair, sync } from './test-helpers.ts';

describe('followed topics', () => {
  it('follows and unfollows, keeping who followed first and when', () => {
    const doc = newDoc();
    followTopic(doc, 'process-reward-models', 'ada', at('2026-03-10T09:00:00Z'));
    followTopic(doc, 'agentic-rl', 'bob', at('2026-03-09T09:00:00Z'));
    followTopic(doc, 'process-reward-models', 'bob', at('2026-03-11T09:00:00Z'));
    expect(listFollowedTopics(doc)).toEqual([
      { slug: 'agentic-rl', followedBy: 'bob', followedAt: '2026-03-09T09:00:00.000Z' },
      { slug: 'process-reward-models', followedBy: 'ada', followedAt: '2026-03-10T09:00:00.000Z' },
    ]);
    expect(unfollowTopic(doc, 'agentic-rl')).toBe(true);
    expect(unfollowTopic(doc, 'agentic-rl')).toBe(false);
    expect(isFollowing(doc, 'agentic-rl')).toBe(false);
  });

  it('rejects slugs that are not slugs', () => {
    const doc = newDoc();
    for (const slug of ['', 'RL', 'rl agents', 'rl|x', '-rl']) {
      expect(codeOf(() => followTopic(doc, slug, 'ada', at('2026-03-10T09:00:00Z')))).toBe('invalid-input');
    }
  });

  it('merges two members following the same topic offline into one entry', () => {
    const [a, b] = pair();
    followTopic(a, 'agentic-rl', 'ada', at('2026-03-10T09:00:00Z'));
    followTopic(b, 'agentic-rl', 'bob', at('2026-03-10T09:05:00Z'));
    followTopic(b, 'reward-shaping', 'bob', at('2026-03-10T09:06:00Z'));
    sync(a, b);
    expect(listFollowedTopics(a).map((t) => t.slug)).toEqual(['agentic-rl', 'reward-shaping']);
    expect(listFollowedTopics(b)).toEqual(listFollowedTopics(a));
  });

  it('keeps a re-follow made concurrently with an unfollow', () => {
    const [a, b] = pair();
    followTopic(a, 'agentic-rl', 'ada', at('2026-03-10T09:00:00Z'));
    sync(a, b);
    unfollowTopic(a, 'agentic-rl');
    unfollowTopic(b, 'agentic-rl');
    followTopic(b, 'agentic-rl', 'bob', at('2026-03-11T09:00:00Z'));
    sync(a, b);
    expect(listFollowedTopics(a)).toEqual([
      { slug: 'agentic-rl', followedBy: 'bob', followedAt: '2026-03-11T09:00:00.000Z' },
    ]);
  });

  it('skips malformed entries', () => {
    const doc = newDoc();
    doc.getMap(ROOT.followedTopics).set('bad', 42);
    doc.getMap(ROOT.followedTopics).set('worse', { by: '', at: '2026-03-10T09:00:00Z' });
    expect(listFollowedTopics(doc)).toEqual([]);
  });
});
