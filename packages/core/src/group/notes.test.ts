import * as Y from 'yjs';
import { describe, expect, it } from 'vitest';
import { noteMarkdown, noteName, noteText } from './notes.ts';
import { codeOf, pair, sync } from './test-helpers.ts';

describe('notes', () => {
  it('keeps both members’ text when two of them start the notes of one paper offline', () => {
    const [a, b] = pair();
    noteText(a, '2603.01234').insert(0, 'Ada: the reward model is process-level.\n');
    noteText(b, 'arXiv:2603.01234v2').insert(0, 'Bob: see Table 3.\n');
    sync(a, b);
    for (const doc of [a, b]) {
      const text = noteMarkdown(doc, '2603.01234');
      expect(text).toContain('Ada: the reward model is process-level.\n');
      expect(text).toContain('Bob: see Table 3.\n');
    }
    expect(noteMarkdown(a, '2603.01234')).toBe(noteMarkdown(b, '2603.01234'));
  });

  it('merges concurrent edits inside existing notes', () => {
    const [a, b] = pair();
    noteText(a, '2603.01234').insert(0, '# Notes\n');
    sync(a, b);
    noteText(a, '2603.01234').insert(8, '- from Ada\n');
    noteText(b, '2603.01234').insert(8, '- from Bob\n');
    sync(a, b);
    const text = noteMarkdown(a, '2603.01234');
    expect(text.startsWith('# Notes\n')).toBe(true);
    expect(text).toContain('- from Ada\n');
    expect(text).toContain('- from Bob\n');
  });

  it('is why notes are root types: a Y.Text created under a map key by two peers loses one text', () => {
    const [a, b] = pair();
    const put = (doc: Y.Doc, text: string) => {
      const note = new Y.Text();
      doc.getMap('naive-notes').set('2603.01234', note);
      note.insert(0, text);
    };
    put(a, 'Ada’s notes');
    put(b, 'Bob’s notes');
    sync(a, b);
    const merged = String((a.getMap('naive-notes').get('2603.01234') as Y.Text).toJSON());
    expect([merged === 'Ada’s notes', merged === 'Bob’s notes']).toContain(true);
    expect(merged.includes('Ada') && merged.includes('Bob')).toBe(false);
  });

  it('names notes by the normal paper id and rejects bad ids', () => {
    expect(noteName('https://arxiv.org/abs/2603.01234v3')).toBe('note:2603.01234');
    expect(codeOf(() => noteName('not a paper'))).toBe('invalid-arxiv-id');
  });
});
