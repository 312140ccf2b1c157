import { describe, expect, it } from 'vitest';
import { countTerms, TermCounts, WordTable } from './neighbour-index-terms.ts';
import { tokenise } from './tokenise.ts';

/** The words counted, in first-seen order, with their counts (every word taken into the table). */
function words(title: string, abstract: string): [string, number][] {
  const table = new WordTable();
  const counts = new TermCounts(16);
  countTerms(title, abstract, table, counts, true);
  const out: [string, number][] = [];
  for (let i = 0; i < counts.length; i++) {
    const t = counts.terms[i]!;
    out.push([table.word(t), counts.count[t]!]);
  }
  return out;
}

describe('countTerms', () => {
  it('reads the words tokenise reads, three characters or more and not all digits, title twice', () => {
    expect(words('LLMs as Agents', 'We train 100s of policies, in 2026, on tasks; agents.')).toEqual([
      ['llm', 2],
      ['agent', 3],
      ['train', 1],
      // "100s" folds to "100": all digits.
      ['policy', 1],
      ['task', 1],
    ]);
  });

  it('agrees with tokenise on text beyond ASCII', () => {
    const text =
      'Étude des réseaux: Straße, ΣΊΣΥΦΟΣ, İstanbul, 𝐁𝐨𝐥𝐝 words, 東京大学 models, x²y, ١٢٣ digits, studies';
    const expected = new Map<string, number>();
    for (const w of tokenise(text).lower)
      if (w.length >= 3 && !/^\d+$/.test(w)) expected.set(w, (expected.get(w) ?? 0) + 1);
    expect(words('', text)).toEqual([...expected]);
  });

  it('counts only the words a table holds when it may not grow', () => {
    const title = 'Policies of LLMs';
    const abstract =
      'Études of policies and agents: Agents, AGENTS, studies, class, gpus, 𝐁𝐨𝐥𝐝; unknownword.';
    // As tokenise folds them: "Études" is read "étude"; mathematical bold letters have no lowercase.
    const kept = ['policy', 'llm', 'étude', 'agent', 'study', 'class', 'gpus', '𝐁𝐨𝐥𝐝'];
    const counts = new TermCounts(kept.length);
    countTerms(title, abstract, new WordTable(kept), counts);
    const got = new Map<string, number>();
    for (let i = 0; i < counts.length; i++) got.set(kept[counts.terms[i]!]!, counts.count[counts.terms[i]!]!);
    // Title words twice: policy 2 + 1, llm 2, agent three times in the abstract; "unknownword" not held.
    expect(Object.fromEntries(got)).toEqual({
      policy: 3,
      llm: 2,
      étude: 1,
      agent: 3,
      study: 1,
      class: 1,
      gpus: 1,
      '𝐁𝐨𝐥𝐝': 1,
    });
  });
});
