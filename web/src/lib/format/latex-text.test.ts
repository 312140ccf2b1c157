import { describe, expect, it } from 'vitest';
import { plainText, richText, type RichNode } from './latex-text.ts';

const plain = (s: string): string => plainText(richText(s));

/** The tree written as markup, to compare structure in one line. */
function markup(nodes: readonly RichNode[]): string {
  return nodes
    .map((n) => (typeof n === 'string' ? n : `<${n.tag}>${markup(n.children)}</${n.tag}>`))
    .join('');
}
const html = (s: string): string => markup(richText(s));

describe('richText', () => {
  it('leaves prose alone', () => {
    expect(richText('Plain words, 50% faster & ~2x <b>.')).toEqual(['Plain words, 50% faster & ~2x <b>.']);
  });

  it('sets operators between operands with spaces and alone without', () => {
    expect(plain('98$\\times$ faster')).toBe('98× faster');
    expect(plain('$d\\ge 2$')).toBe('d ≥ 2');
    expect(plain('$2\\times 10^3$')).toBe('2 × 103');
    expect(plain('$>200\\times$')).toBe('>200×');
    expect(plain('$n{=}17$')).toBe('n=17');
    expect(plain('$-1$ and $a-b$')).toBe('−1 and a − b');
  });

  it('parts function names from their arguments', () => {
    expect(plain('$O(N \\log N)$')).toBe('O(N log N)');
    expect(plain('$\\ln\\ln n$')).toBe('ln ln n');
    expect(plain('$Θ(d\\ln(n/d)/n)$')).toBe('Θ(d ln(n/d)/n)');
  });

  it('renders scripts, alphabets, roots and fractions', () => {
    expect(html('$\\mathbb{R}^d$')).toBe('<math>ℝ<sup><i>d</i></sup></math>');
    expect(html('$x_{t+1}$')).toBe('<math><i>x</i><sub><i>t</i>+1</sub></math>');
    expect(plain('$α=2^\\circ$')).toBe('α = 2°');
    expect(plain('$\\mathcal X^*$')).toBe('𝒳*');
    expect(plain('$\\sqrt{τ\\ln(1/τ)}$')).toBe('√(τ ln(1/τ))');
    expect(plain('$\\frac{1}{2}$ and $\\frac{a+b}{n}$')).toBe('1/2 and (a + b)/n');
    expect(plain('$\\alpha, \\beta \\in \\mathbb{N}$')).toBe('α,\u2009β ∈ ℕ');
    expect(plain('$(L_0,L_1)$ and $1,000$')).toBe('(L0,\u2009L1) and 1,000');
    expect(plain('$\\hat{x}$')).toBe('x̂');
    expect(plain('$70\\%$')).toBe('70%');
    expect(plain('$\\operatorname*{arg\\,max}_x f$')).toBe('arg\u2009maxx f');
  });

  it('converts text-mode formatting and escapes', () => {
    expect(html('We propose \\textbf{FOO}, \\emph{fast}.')).toBe('We propose <b>FOO</b>, <i>fast</i>.');
    expect(plain('50\\% of \\texttt{code} \\cite{x} in Sch\\"{o}n')).toBe('50% of code  in Schön');
    expect(plain('see \\href{https://x.org}{our site}')).toBe('see our site');
    expect(html('\\(x^2\\)')).toBe('<math><i>x</i><sup>2</sup></math>');
  });

  it('makes ties and dashes typographic in text', () => {
    expect(plain('Theorem~\\ref{t}, ~50% faster -- really --- yes, x--y')).toBe(
      'Theorem\u00a0, ~50% faster – really — yes, x--y',
    );
  });

  it('keeps dollar signs that are not maths', () => {
    expect(plain('costs $5 and $10 each')).toBe('costs $5 and $10 each');
    expect(plain('a lone $ sign')).toBe('a lone $ sign');
    expect(plain('unclosed $x')).toBe('unclosed $x');
  });

  it('never produces markup from the source text', () => {
    const nodes = richText('<script>alert(1)</script> $<img src=x onerror=alert(1)>$ \\textbf{<b>}');
    expect(plainText(nodes)).toContain('<script>');
    const tags = new Set<string>();
    const walk = (list: readonly RichNode[]): void =>
      list.forEach((n) => {
        if (typeof n !== 'string') {
          tags.add(n.tag);
          walk(n.children);
        }
      });
    walk(nodes);
    expect([...tags].every((t) => ['math', 'b', 'i', 'upright'].includes(t))).toBe(true);
  });

  it('survives deep nesting and unknown commands', () => {
    // Beyond the nesting limit the rest is shown as written.
    expect(plain('{'.repeat(5000) + 'x' + '}'.repeat(5000))).toMatch(/^\{+x\}+$/);
    expect(plain('our \\method{} wins')).toBe('our method wins');
    expect(plain('$\\Tmix$')).toBe('Tmix');
  });
});

describe('commands named like JavaScript built-ins', () => {
  // Tables indexed with `name in TABLE` matched inherited properties: `\constructor` read the Object
  // constructor as a symbol and the page threw.
  it.each(['constructor', 'toString', 'valueOf', 'hasOwnProperty', 'isPrototypeOf', 'propertyIsEnumerable'])(
    '\\%s renders as its own name in text and in maths',
    (name) => {
      expect(plain(`A \\${name} title`)).toContain(name);
      expect(plain(`$x \\${name} y$`)).toContain(name);
      expect(plain(`\\mathbb{\\${name}}`)).not.toBe('');
    },
  );
});
