import { describe, expect, it } from 'vitest';
import { TermWords, WordBuffer } from './term-words.ts';
import { tokenise } from './tokenise.ts';

const TEXT =
  'LLMs and VLAs use RAG; Agents, policies, studies, flies and analysis. GPUs, 3DGS-based LLaMA-3 Qwen2.5 ' +
  'models: ÜBER-fast Schrödinger équations, ΑΒΓ, 𝑥-rays and x, a. Process focus bus gas cities ties lies.';

describe('term words', () => {
  it('reads the same ids as tokenise forms looked up in the vocabulary', () => {
    const vocabulary = [...new Set([...tokenise(TEXT).lower, ...tokenise(TEXT).exact])];
    // Every other word only: the rest of the text's words must read as -1.
    const known = vocabulary.filter((_, i) => i % 2 === 0);
    const words = new TermWords();
    const ids = new Map(known.map((w) => [w, words.idOf(w)]));
    const out = new WordBuffer();
    const n = words.read(TEXT, 0, TEXT.length, out, 0);
    const { lower, exact } = tokenise(TEXT);
    expect(n).toBe(lower.length);
    for (let i = 0; i < n; i++) {
      expect(out.lowerId[i], lower[i]).toBe(ids.get(lower[i] ?? '') ?? -1);
      expect(out.exactId[i], exact[i]).toBe(ids.get(exact[i] ?? '') ?? -1);
      const raw = TEXT.slice(out.start[i], out.end[i]);
      expect(tokenise(raw).lower).toEqual([lower[i]]);
    }
  });

  it('reads a range of a text as its substring', () => {
    const words = new TermWords();
    for (const w of tokenise(TEXT).lower) words.idOf(w);
    const whole = new WordBuffer();
    const part = new WordBuffer();
    const from = TEXT.indexOf('GPUs');
    const to = TEXT.indexOf(' Process');
    const n = words.read(TEXT, from, to, part, 0);
    const sub = TEXT.slice(from, to);
    const m = words.read(sub, 0, sub.length, whole, 0);
    expect(n).toBe(m);
    expect([...part.lowerId.slice(0, n)]).toEqual([...whole.lowerId.slice(0, m)]);
    expect([...part.exactId.slice(0, n)]).toEqual([...whole.exactId.slice(0, m)]);
  });
});
