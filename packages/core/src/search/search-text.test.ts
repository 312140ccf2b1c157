import { describe, expect, it } from 'vitest';
import {
  authorFilterKey,
  authorKeys,
  columnTerms,
  columnTermsAndLength,
  phraseTerms,
  indexTerms,
  normaliseSearchText,
  queryTermsOf,
  tokenizeAuthors,
  tokenizeField,
  tokenizeSearchText,
  wordSequence,
} from './search-text.ts';

describe('normaliseSearchText', () => {
  it('drops LaTeX markup but keeps the words it wraps', () => {
    expect(normaliseSearchText('\\textbf{O}ffline \\textbf{P}olicy')).toBe('offline policy');
    expect(tokenizeSearchText('We built $\\texttt{torch-webgpu}$ with $\\alpha$-scaling')).toEqual([
      'we',
      'built',
      'torch-webgpu',
      'with',
      'alpha',
      'scaling',
    ]);
    expect(tokenizeSearchText('as in \\cite{smith2020} and Fig.~\\ref{fig:a}')).toEqual([
      'as',
      'in',
      'and',
      'fig',
    ]);
  });

  it('folds accents, written as Unicode or as LaTeX', () => {
    expect(tokenizeSearchText('Müller, G\\"{o}del, Erd\\H{o}s, Jos\\\'e')).toEqual([
      'muller',
      'godel',
      'erdos',
      'jose',
    ]);
  });
});

describe('terms', () => {
  it('indexes a hyphenated word as its parts and joined; a query reads it joined', () => {
    expect(indexTerms('multi-agent')).toEqual(['multi', 'agent', 'multiagent']);
    expect(queryTermsOf('multi-agent')).toEqual(['multiagent']);
    expect(queryTermsOf('multiagent systems')).toEqual(['multiagent', 'system']);
  });

  it('drops function words from text and queries, but not from authors', () => {
    expect(indexTerms('the')).toEqual([]);
    expect(indexTerms('an', 'authors')).toEqual(['an']);
    expect(queryTermsOf('the policies of agents')).toEqual(['policy', 'agent']);
  });

  it('keeps every word, in order, for phrase checks', () => {
    expect(wordSequence('State-of-the-Art Agents')).toEqual(['state', 'of', 'the', 'art', 'agent']);
  });
});

describe('author keys', () => {
  it('gives each author whole-name keys an author filter looks up', () => {
    expect(authorKeys(['jane', 'm', 'doe'])).toEqual(['janedoe', 'jdoe', 'jmdoe']);
    expect(authorKeys(['doe'])).toEqual([]);
    expect(tokenizeAuthors('Jane Doe, Li Wei')).toEqual([
      'jane',
      'doe',
      'janedoe',
      'jdoe',
      'li',
      'wei',
      'liwei',
      'lwei',
    ]);
  });

  it('gives each key once when a one-letter first name or the initials make two alike', () => {
    expect(authorKeys(['j', 'doe'])).toEqual(['jdoe']);
    expect(authorKeys(['jane', 'doe'])).toEqual(['janedoe', 'jdoe']);
    // all initials "ab" + doe is the first+last key again
    expect(authorKeys(['ab', 'b', 'doe'])).toEqual(['abdoe', 'adoe']);
  });

  it('looks a filter up by first and last name, or by initials when written so', () => {
    expect(authorFilterKey('Jane Doe')).toBe('janedoe');
    expect(authorFilterKey('Jane M. Doe')).toBe('janedoe');
    expect(authorFilterKey('J. M. Doe')).toBe('jmdoe');
    expect(authorFilterKey('Jean-Pierre Sérre')).toBe('jeanserre');
    expect(authorFilterKey('Doe')).toBe('doe');
    expect(authorFilterKey('  ')).toBeNull();
  });
});

describe('columnTerms', () => {
  it('lays a text out as its words in order, then its compounds joined', () => {
    expect(columnTerms('The state-of-the-art Multi-Agent systems')).toEqual([
      'state',
      'art',
      'multi',
      'agent',
      'system',
      'stateoftheart',
      'multiagent',
    ]);
    expect(phraseTerms('multi-agent systems')).toEqual(['multi', 'agent', 'system']);
  });

  it('splits plain ASCII at joiners only between letters or digits', () => {
    expect(columnTerms("It's a 3-D x-1-y a--b -x- E-mails ab''cd")).toEqual([
      '3',
      '1',
      'mail',
      'ab',
      'cd',
      'its',
      '3d',
      'x1y',
      'email',
    ]);
  });

  it('folds plurals before dropping function words, in ASCII and accented text alike', () => {
    expect(columnTerms('Policies ties dies process focus analysis agents GPT4s 3s abcs')).toEqual([
      'policy',
      'tie',
      'die',
      'process',
      'focus',
      'analysis',
      'agent',
      'gpt4',
      '3s',
      'abc',
    ]);
    // "theses" folds to "these", "theirs" to "their", "ours" to "our": function words once folded
    expect(columnTerms('theses theirs ours which whichever')).toEqual(['whichever']);
    expect(columnTerms('Müller policies über-agents')).toEqual([
      'muller',
      'policy',
      'uber',
      'agent',
      'uberagent',
    ]);
  });

  it('reads apostrophes and hyphens, ASCII or typographic, as joiners inside a word only', () => {
    // single letters and "it" are dropped as parts; the joined words keep them
    expect(columnTerms("O'Neil's e\u2011mails it\u2019s")).toEqual(['neil', 'mail', 'oneil', 'email', 'its']);
    expect(columnTerms("'quoted' -dash- 2-3-4")).toEqual(['quoted', 'dash', '2', '3', '4', '234']);
  });

  it('reads plain ASCII (its one-pass path) exactly as the general path reads the same text', () => {
    // A CJK letter at the end (no ASCII form) sends the text through the general path; alone it is one
    // letter, which is never a term, so both must give the same terms.
    const alphabet = "abcxyzEQ019 -'.,;:()/$\\{}_^~\t\n";
    for (const text of randomTexts(alphabet, 20_261_206, 3000)) {
      expect(columnTerms(text), JSON.stringify(text)).toEqual(columnTerms(`${text} \u4e00`));
      expect(phraseTerms(text), JSON.stringify(text)).toEqual(phraseTerms(`${text} \u4e00`));
    }
  });

  it('gives the same terms the minisearch index is given', () => {
    const text = 'We built $\\texttt{torch-webgpu}$ for Müller-style agents, the state of the art';
    const minisearch = tokenizeSearchText(text).flatMap((t) => indexTerms(t));
    expect([...columnTerms(text)].sort()).toEqual([...minisearch].sort());
  });

  it('keeps every author word and follows each name with its keys', () => {
    expect(columnTerms('Jean-Pierre Serre, An Li', 'authors')).toEqual([
      'jean',
      'pierre',
      'serre',
      'jeanpierre',
      'jeanserre',
      'jserre',
      'jpserre',
      'an',
      'li',
      'anli',
      'ali',
    ]);
  });
});

describe('columnTermsAndLength', () => {
  it("gives a field's terms and its distinct tokens (function words and compounds whole) in one pass", () => {
    expect(columnTermsAndLength('The state-of-the-art Multi-Agent systems and the agents')).toEqual({
      terms: ['state', 'art', 'multi', 'agent', 'system', 'agent', 'stateoftheart', 'multiagent'],
      // the, state-of-the-art, multi-agent, systems, and, agents
      length: 6,
    });
    expect(columnTermsAndLength('Jean-Pierre Serre, An Li', 'authors')).toEqual({
      terms: columnTerms('Jean-Pierre Serre, An Li', 'authors'),
      // jean-pierre, serre, an, li and the keys jeanserre, jserre, jpserre, anli, ali
      length: 9,
    });
  });

  it('agrees with columnTerms and tokenizeField on any text, ASCII or not', () => {
    const alphabet = "abcxyzEQ019 -'.,;:()/$\\{}_^~\t\néü–’\u4e00";
    for (const text of randomTexts(alphabet, 20_261_207, 3000)) {
      for (const field of ['title', 'authors']) {
        const names = field === 'authors' ? text.replaceAll(';', ', ') : text;
        expect(columnTermsAndLength(names, field), JSON.stringify(names)).toEqual({
          terms: columnTerms(names, field),
          length: new Set(tokenizeField(names, field)).size,
        });
      }
    }
  });
});

/** `count` texts of 1-40 characters drawn from `alphabet`, the same for a seed (xorshift32: integer steps that stay exact in a double). */
function randomTexts(alphabet: string, seed: number, count: number): string[] {
  let state = seed;
  const next = (n: number): number => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) % n;
  };
  return Array.from({ length: count }, () =>
    Array.from({ length: 1 + next(40) }, () => alphabet[next(alphabet.length)]).join(''),
  );
}
