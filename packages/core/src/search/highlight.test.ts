import { describe, expect, it } from 'vitest';
import { highlight, highlightSnippet, type HighlightSegment } from './highlight.ts';

const hits = (segments: HighlightSegment[]) => segments.filter((s) => s.hit).map((s) => s.text);
const joined = (segments: HighlightSegment[]) => segments.map((s) => s.text).join('');

describe('highlight', () => {
  it('marks every form of a matched term and keeps the text whole', () => {
    const text = 'Reinforcement learning agents; an agent learns.';
    const segments = highlight(text, ['reinforcement', 'agent']);
    expect(joined(segments)).toBe(text);
    expect(hits(segments)).toEqual(['Reinforcement', 'agents', 'agent']);
    expect(segments[0]).toEqual({ text: 'Reinforcement', hit: true });
  });

  it('marks a compound when its joined form matched, and its parts otherwise', () => {
    expect(hits(highlight('Multi-agent systems', ['multiagent']))).toEqual(['Multi-agent']);
    expect(hits(highlight('Multi-agent systems', ['agent']))).toEqual(['agent']);
  });

  it('folds accents and leaves maths alone', () => {
    expect(hits(highlight('Marta Müller', ['muller']))).toEqual(['Müller']);
    expect(hits(highlight('the $\\alpha$ of alpha', ['alpha']))).toEqual(['alpha']);
  });

  it('returns the text unmarked when nothing matched', () => {
    expect(highlight('plain', [])).toEqual([{ text: 'plain', hit: false }]);
  });
});

describe('highlightSnippet', () => {
  const long = `${'Filler words come first. '.repeat(20)}Then the rare word zeugma appears. ${'More words follow here. '.repeat(20)}`;

  it('shows about the given width around the first match, cut at spaces', () => {
    const segments = highlightSnippet(long, ['zeugma'], 120);
    expect(hits(segments)).toEqual(['zeugma']);
    expect(segments[0]).toEqual({ text: '…', hit: false });
    expect(segments.at(-1)).toEqual({ text: '…', hit: false });
    const body = joined(segments.slice(1, -1));
    expect(body.length).toBeLessThanOrEqual(120);
    expect(long).toContain(body);
    expect(body.startsWith(' ') || body.endsWith(' ')).toBe(false);
  });

  it('starts at the beginning when nothing matched, and never cuts maths', () => {
    expect(joined(highlightSnippet(long, [], 60)).startsWith('Filler words')).toBe(true);
    const maths = `${'x '.repeat(30)}$a + b = c$ zeugma`;
    const body = joined(highlightSnippet(maths, ['zeugma'], 20));
    expect(body).toContain('$a + b = c$');
  });

  it('keeps a short text whole', () => {
    expect(joined(highlightSnippet('short text', ['text']))).toBe('short text');
  });
});
