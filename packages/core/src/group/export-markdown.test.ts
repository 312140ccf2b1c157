import { describe, expect, it } from 'vitest';
import { addComment, deleteComment, editComment } from './comments.ts';
import { escapeMarkdown, exportMarkdown } from './export-markdown.ts';
import { joinGroup } from './members.ts';
import { noteText } from './notes.ts';
import { saveToQueue, setQueueStatus } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';
import { recordLatestVersion } from './version-change.ts';

describe('Markdown export', () => {
  it('writes the queue with notes and threaded comments', () => {
    const doc = newDoc();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-01T09:00:00Z'));
    joinGroup(doc, { id: 'bob', name: 'Bob *B*', colour: '#3cb44b' }, at('2026-03-01T09:00:00Z'));
    const p1 = '2603.01234';
    saveToQueue(
      doc,
      paper(p1, { title: 'Reward *hacking* in [RL]', version: 2, codeLinks: ['https://github.com/a/b'] }),
      'ada',
      at('2026-03-10T09:00:00Z'),
    );
    setQueueStatus(doc, p1, 'reading', 'bob', at('2026-03-10T10:00:00Z'));
    noteText(doc, p1).insert(0, '# Summary\nIt works.\n');
    addComment(
      doc,
      p1,
      { id: 'c1', text: 'Fair baseline?\nSee Table 2.' },
      'ada',
      at('2026-03-11T10:00:00Z'),
    );
    addComment(doc, p1, { id: 'c2', text: 'Yes', replyTo: 'c1' }, 'bob', at('2026-03-11T11:00:00Z'));
    editComment(doc, p1, 'c2', 'Yes.', 'bob', at('2026-03-11T11:30:00Z'));
    addComment(doc, p1, { id: 'c3', text: 'Oops' }, 'bob', at('2026-03-11T12:00:00Z'));
    deleteComment(doc, p1, 'c3', 'bob', at('2026-03-11T12:05:00Z'));

    const p2 = '2603.04321';
    saveToQueue(
      doc,
      paper(p2, {
        title: 'Second',
        version: 1,
        authors: [],
        tags: [],
        listingDate: null,
        primaryCategory: '',
        categories: [],
      }),
      'bob',
      at('2026-03-09T08:00:00Z'),
    );
    setQueueStatus(doc, p2, 'discussed', 'ada', at('2026-03-12T18:00:00Z'));
    recordLatestVersion(doc, p2, 2, at('2026-03-13T09:00:00Z'));

    expect(exportMarkdown(doc)).toBe(
      [
        '# Reading queue',
        '',
        '## Reward \\*hacking\\* in \\[RL\\]',
        '',
        '- **Authors:** Ada Lovelace, Alan Turing',
        '- **arXiv:** [2603.01234v2](https://arxiv.org/abs/2603.01234) · [PDF](https://arxiv.org/pdf/2603.01234)',
        '- **Listing:** listed 2026-03-10 · cs.LG',
        '- **Topics:** Reinforcement Learning',
        '- **Code:** <https://github.com/a/b>',
        '- **Status:** reading · added by Ada on 2026-03-10 09:00 UTC',
        '',
        '### Notes',
        '',
        '# Summary',
        'It works.',
        '',
        '### Comments',
        '',
        '- **Ada** (2026-03-11 10:00 UTC): Fair baseline?',
        '  See Table 2.',
        '  - **Bob \\*B\\*** (2026-03-11 11:00 UTC, edited): Yes.',
        '- **Bob \\*B\\*** (2026-03-11 12:00 UTC): _(deleted)_',
        '',
        '## Second',
        '',
        '- **arXiv:** [2603.04321v1](https://arxiv.org/abs/2603.04321) · [PDF](https://arxiv.org/pdf/2603.04321)',
        '- **Status:** discussed · added by Bob \\*B\\* on 2026-03-09 08:00 UTC',
        '- **Newer version:** v2 is out; the group discussed v1.',
        '',
      ].join('\n'),
    );
  });

  it('says so when the queue is empty, and escapes inline markup', () => {
    expect(exportMarkdown(newDoc(), { title: 'Week 12' })).toBe('# Week 12\n\nThe queue is empty.\n');
    expect(escapeMarkdown('a_b <script> `x` #1 | [y](z)')).toBe(
      'a\\_b \\<script\\> \\`x\\` \\#1 \\| \\[y\\](z)',
    );
  });
});
