import { describe, expect, it } from 'vitest';
import { forEachWord } from './neighbour-index-terms.ts';
import { tokenise } from './tokenise.ts';

const words = (title: string, abstract: string) => {
  const out: [string, number][] = [];
  forEachWord(title, abstract, (word, weight) => out.push([word, weight]));
  return out;
};

describe('forEachWord', () => {
  it('reads the words tokenise reads, three characters or more and not all digits, title twice', () => {
    expect(words('LLMs as Agents', 'We train 100s of policies, in 2026, on tasks.')).toEqual([
      ['llm', 2],
      ['agent', 2],
      ['train', 1],
      // "100s" folds to "100": all digits.
      ['policy', 1],
      ['task', 1],
    ]);
  });

  it('agrees with tokenise on text beyond ASCII', () => {
    const text = 'Étude des réseaux: Straße, ΣΊΣΥΦΟΣ, İstanbul, 𝐁𝐨𝐥𝐝 words, 東京大学 models, x²y, ١٢٣ digits';
    const expected = tokenise(text).lower.filter((w) => w.length >= 3 && !/^\d+$/.test(w));
    expect(words('', text).map(([w]) => w)).toEqual(expected);
  });
});
