import { describe, expect, it } from 'vitest';
import { addComment, deleteComment, editComment } from './comments.ts';
import { demoteHeadings, escapeMarkdown, escapeWithMath, exportMarkdown } from './export-markdown.ts';
import { joinGroup } from './members.ts';
import { noteText } from './notes.ts';
import { closeWeek, markDiscussed } from './pick-history.ts';
import { saveToQueue, setQueueStatus } from './queue.ts';
import { at, newDoc, paper } from './test-helpers.ts';
import { recordLatestVersion } from './version-change.ts';
import { castVote, nominate } from './weekly-pick.ts';

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
        '### Abstract',
        '',
        'The abstract of 2603.01234.',
        '',
        '### Notes',
        '',
        '#### Summary',
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
        '### Abstract',
        '',
        'The abstract of 2603.04321.',
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

describe('Markdown export: headings, abstracts, picks and a chosen status', () => {
  it('demotes note headings under the paper, outside code, setext ones too', () => {
    const note = [
      '# Summary',
      '## Method',
      '###### Deep',
      'Results',
      '=======',
      '',
      'List',
      '- a',
      '---',
      '```md',
      '# not a heading',
      '```',
      '#hashtag',
    ].join('\n');
    expect(demoteHeadings(note, 3)).toBe(
      [
        '#### Summary',
        '##### Method',
        '###### Deep',
        '#### Results',
        '',
        'List',
        '- a',
        '---',
        '```md',
        '# not a heading',
        '```',
        '#hashtag',
      ].join('\n'),
    );
  });

  it('keeps maths in abstracts as TeX and escapes the rest', () => {
    expect(escapeWithMath('Cost $O(n_1^2)$ for *all*\n  [x]')).toBe('Cost $O(n_1^2)$ for \\*all\\* \\[x\\]');
    expect(escapeWithMath('Costs $5 per run_id')).toBe('Costs $5 per run\\_id');
  });

  it('exports only the chosen statuses, with the pick history', () => {
    const doc = newDoc();
    joinGroup(doc, { id: 'ada', name: 'Ada', colour: '#4363d8' }, at('2026-03-01T09:00:00Z'));
    saveToQueue(doc, paper('2603.00001', { title: 'Kept' }), 'ada', at('2026-03-09T08:00:00Z'));
    saveToQueue(doc, paper('2603.00002', { title: 'Left out' }), 'ada', at('2026-03-09T08:00:00Z'));
    setQueueStatus(doc, '2603.00001', 'discussed', 'ada', at('2026-03-12T18:00:00Z'));
    nominate(doc, '2026-03-09', '2603.00001', 'ada', at('2026-03-09T09:00:00Z'));
    castVote(doc, '2026-03-09', '2603.00001', 'ada', at('2026-03-09T10:00:00Z'));
    closeWeek(doc, '2026-03-09', 'ada', at('2026-03-11T18:00:00Z'));
    markDiscussed(doc, '2026-03-09', 'ada', at('2026-03-12T18:00:00Z'));
    const text = exportMarkdown(doc, { statuses: ['discussed'] });
    expect(text).toContain('## Kept');
    expect(text).not.toContain('## Left out');
    expect(text.trimEnd().split('\n').slice(-3)).toEqual([
      '## Weekly picks',
      '',
      '- **Week of 2026-03-09:** Kept (arXiv 2603.00001) · 1 vote, closed by Ada on 2026-03-11 18:00 UTC; discussed 2026-03-12 18:00 UTC (marked by Ada)',
    ]);
    expect(exportMarkdown(doc, { statuses: ['archived'] })).toContain(
      'No paper in the queue has the chosen status.',
    );
  });
});
