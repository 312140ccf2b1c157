import { describe, expect, it } from 'vitest';
import { WordBatch } from './pg-word-batch.ts';

describe('WordBatch', () => {
  it('reads the words asked in one turn in one read, each answered with its own papers', async () => {
    const reads: string[][] = [];
    const batch = new WordBatch((terms) => {
      reads.push([...terms]);
      return Promise.resolve(terms.filter((t) => t !== 'none').map((term) => ({ term, docs: term.length })));
    });
    const docs = await Promise.all(['agent', 'robot', 'agent', 'none'].map((t) => batch.docs(t)));
    expect(docs).toEqual([5, 5, 5, 0]);
    expect(reads).toEqual([['agent', 'robot', 'none']]);
    expect(await batch.docs('planning')).toBe(8);
    expect(reads).toHaveLength(2);
  });

  it('fails every word of a failed read, and reads the next turn’s words afresh', async () => {
    let fail = true;
    const batch = new WordBatch((terms) =>
      fail ? Promise.reject(new Error('gone')) : Promise.resolve(terms.map((term) => ({ term, docs: 1 }))),
    );
    const asked = [batch.docs('a'), batch.docs('b')];
    await expect(Promise.all(asked)).rejects.toThrow('gone');
    await expect(asked[1]).rejects.toThrow('gone');
    fail = false;
    expect(await batch.docs('a')).toBe(1);
  });
});
