import { describe, expect, it } from 'vitest';
import * as Y from 'yjs';
import { diffText, transformIndex, type DeltaOp } from './text-diff.ts';

function apply(text: string, edit: ReturnType<typeof diffText>): string {
  if (!edit) return text;
  return text.slice(0, edit.index) + edit.insert + text.slice(edit.index + edit.remove);
}

describe('diffText', () => {
  it('finds one insert, delete or replacement', () => {
    expect(diffText('abc', 'abc')).toBeNull();
    expect(diffText('abc', 'abXc')).toEqual({ index: 2, remove: 0, insert: 'X' });
    expect(diffText('abcd', 'ad')).toEqual({ index: 1, remove: 2, insert: '' });
    expect(diffText('hello world', 'hello there')).toEqual({ index: 6, remove: 5, insert: 'there' });
    expect(diffText('', 'typed')).toEqual({ index: 0, remove: 0, insert: 'typed' });
  });

  it('places the edit at the caret when the text repeats', () => {
    expect(diffText('aa', 'aaa', 2)).toEqual({ index: 1, remove: 0, insert: 'a' });
    expect(diffText('aa', 'aaa', 1)).toEqual({ index: 0, remove: 0, insert: 'a' });
    // Backspace between the a's.
    expect(diffText('aaa', 'aa', 1)).toEqual({ index: 1, remove: 1, insert: '' });
    // A caret that does not fit the change is ignored.
    expect(diffText('abc', 'abXc', 0)).toEqual({ index: 2, remove: 0, insert: 'X' });
  });

  it('never splits a surrogate pair', () => {
    const edit = diffText('x😀y', 'x😁y');
    expect(edit).toEqual({ index: 1, remove: 2, insert: '😁' });
    expect(apply('x😀y', edit)).toBe('x😁y');
  });

  it('always reproduces the new text', () => {
    const cases: [string, string, number][] = [
      ['', '', 0],
      ['abc', '', 0],
      ['abcabc', 'abcXabc', 4],
      ['one two', 'one  two', 4],
      ['line\n\nline', 'line\nline', 5],
    ];
    for (const [before, after, cursor] of cases) {
      expect(apply(before, diffText(before, after, cursor))).toBe(after);
      expect(apply(before, diffText(before, after))).toBe(after);
    }
  });
});

describe('transformIndex', () => {
  const caretAfter = (before: string, index: number, change: (t: Y.Text) => void): number => {
    const doc = new Y.Doc();
    const text = doc.getText('t');
    text.insert(0, before);
    let delta: DeltaOp[] = [];
    text.observe((event) => (delta = event.delta as DeltaOp[]));
    change(text);
    return transformIndex(index, delta);
  };

  it('moves the caret with the text before it', () => {
    expect(caretAfter('hello world', 6, (t) => t.insert(0, '>> '))).toBe(9);
    expect(caretAfter('hello world', 6, (t) => t.insert(8, 'X'))).toBe(6);
    expect(caretAfter('hello world', 6, (t) => t.delete(0, 3))).toBe(3);
    // A deletion around the caret leaves it where the deleted text was.
    expect(caretAfter('hello world', 6, (t) => t.delete(4, 4))).toBe(4);
  });

  it('keeps the caret before text inserted exactly at it', () => {
    expect(caretAfter('ab', 1, (t) => t.insert(1, 'XYZ'))).toBe(1);
  });
});

describe('two editors typing at once', () => {
  it('merge both texts whole', () => {
    const a = new Y.Doc();
    const b = new Y.Doc();
    const edit = (doc: Y.Doc, before: string, after: string, cursor: number): void => {
      const e = diffText(before, after, cursor);
      if (!e) return;
      const t = doc.getText('n');
      t.delete(e.index, e.remove);
      t.insert(e.index, e.insert);
    };
    let ta = '';
    let tb = '';
    for (const [i, ch] of [...'Alpha'].entries()) {
      edit(a, ta, ta.slice(0, i) + ch + ta.slice(i), i + 1);
      ta = a.getText('n').toJSON();
      const chB = 'Bravo'[i] ?? '';
      edit(b, tb, tb.slice(0, i) + chB + tb.slice(i), i + 1);
      tb = b.getText('n').toJSON();
    }
    Y.applyUpdate(a, Y.encodeStateAsUpdate(b));
    Y.applyUpdate(b, Y.encodeStateAsUpdate(a));
    const merged = a.getText('n').toJSON();
    expect(merged).toBe(b.getText('n').toJSON());
    expect(merged).toContain('Alpha');
    expect(merged).toContain('Bravo');
  });
});
