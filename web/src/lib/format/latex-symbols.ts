import { own } from './own-key.ts';
/** What the common LaTeX commands of arXiv titles and abstracts stand for, as plain Unicode. */

/** "name value name value …" → a lookup table; keeps long symbol lists short to read. */
function pairs(spec: string): Record<string, string> {
  const words = spec.trim().split(/\s+/);
  const table: Record<string, string> = {};
  for (let i = 0; i + 1 < words.length; i += 2) table[words[i] as string] = words[i + 1] as string;
  return table;
}

function words(spec: string): Set<string> {
  return new Set(spec.trim().split(/\s+/));
}

/** Lower-case Greek, set in italics in maths like any variable. */
export const GREEK_LOWER = pairs(`
  alpha α beta β gamma γ delta δ epsilon ϵ varepsilon ε eps ε zeta ζ eta η theta θ vartheta ϑ iota ι
  kappa κ lambda λ mu μ nu ν xi ξ pi π varpi ϖ rho ρ varrho ϱ sigma σ varsigma ς tau τ upsilon υ phi ϕ
  varphi φ chi χ psi ψ omega ω ell ℓ
`);

/** Relations and binary operators: in maths they get a space on each side when they sit between operands. */
export const OPERATORS = pairs(`
  times × cdot · div ÷ pm ± mp ∓ circ ∘ ast ∗ star ⋆ otimes ⊗ oplus ⊕ ominus ⊖ odot ⊙ cup ∪ cap ∩
  setminus ∖ wedge ∧ land ∧ vee ∨ lor ∨ leq ≤ le ≤ leqslant ≤ geq ≥ ge ≥ geqslant ≥ neq ≠ ne ≠
  approx ≈ sim ∼ simeq ≃ cong ≅ equiv ≡ propto ∝ asymp ≍ ll ≪ gg ≫ lesssim ≲ gtrsim ≳ prec ≺ succ ≻
  preceq ⪯ succeq ⪰ in ∈ notin ∉ ni ∋ subset ⊂ subseteq ⊆ supset ⊃ supseteq ⊇ to → rightarrow →
  longrightarrow ⟶ leftarrow ← gets ← longleftarrow ⟵ leftrightarrow ↔ Rightarrow ⇒ implies ⇒
  Leftarrow ⇐ Leftrightarrow ⇔ iff ⇔ mapsto ↦ xrightarrow → mid ∣ perp ⊥ models ⊨ vdash ⊢
`);

export const SYMBOLS = pairs(`
  Gamma Γ Delta Δ Theta Θ Lambda Λ Xi Ξ Pi Π Sigma Σ Upsilon Υ Phi Φ Psi Ψ Omega Ω infty ∞ nabla ∇
  partial ∂ sum ∑ prod ∏ int ∫ oint ∮ top ⊤ bot ⊥ forall ∀ exists ∃ nexists ∄ neg ¬ lnot ¬ emptyset ∅
  varnothing ∅ prime ′ dagger † ddagger ‡ bullet • dots … ldots … cdots ⋯ vdots ⋮ ddots ⋱ uparrow ↑
  downarrow ↓ Uparrow ⇑ Downarrow ⇓ langle ⟨ rangle ⟩ lceil ⌈ rceil ⌉ lfloor ⌊ rfloor ⌋ lvert |
  rvert | vert | Vert ‖ lVert ‖ rVert ‖ | ‖ aleph ℵ hbar ℏ Re ℜ Im ℑ wp ℘ degree ° checkmark ✓ surd √
  angle ∠ triangle △ square □ diamond ◇ clubsuit ♣ spadesuit ♠ heartsuit ♡ S § P ¶ copyright ©
  textregistered ® texttrademark ™ textasciitilde ~ textasciicircum ^ textbackslash \\ textbar |
  textless < textgreater > textendash – textemdash — textbullet • textdegree ° textperthousand ‰
  euro € pounds £ ss ß ae æ AE Æ oe œ OE Œ o ø O Ø aa å AA Å l ł L Ł i ı
`);

/** Function names set upright in maths ("log n"). */
export const FUNCTIONS = words(`
  log ln lg exp max min sup inf lim liminf limsup arg argmax argmin sin cos tan sinh cosh tanh arcsin
  arccos arctan cot sec csc det dim ker deg gcd hom Pr mod bmod poly polylog softmax tr Tr rank diag
  sgn sign KL Var Cov E
`);

/** Escapes written with a backslash in either mode. */
export const ESCAPES: Record<string, string> = {
  '%': '%',
  $: '$',
  '&': '&',
  '#': '#',
  _: '_',
  '{': '{',
  '}': '}',
  ' ': ' ',
  ',': '\u2009',
  ';': '\u2005',
  ':': '\u2005',
  '>': '\u2005',
  '!': '',
  '/': '',
  '-': '',
  '\\': ' ',
};

/** Spacing commands. */
export const SPACES: Record<string, string> = {
  quad: '\u2003',
  qquad: '\u2003\u2003',
  enspace: '\u2002',
  thinspace: '\u2009',
  medspace: '\u2005',
  thickspace: '\u2004',
  space: ' ',
  newline: ' ',
  linebreak: ' ',
  par: ' ',
  noindent: '',
};

/** Commands that only change sizes or spacing: dropped, their effect is lost harmlessly. */
export const IGNORED = words(`
  left right middle big Big bigg Bigg bigl bigr Bigl Bigr biggl biggr Biggl Biggr displaystyle
  textstyle scriptstyle scriptscriptstyle limits nolimits rm it bf sf tt em cal small footnotesize
  scriptsize tiny large Large LARGE huge Huge normalsize mathop mathrel mathbin mathord nonumber notag
  centering xspace protect relax hfill vfill ignorespaces
`);

/** Commands whose braced argument says nothing a reader needs (citations, labels, colours). */
export const DROP_ARGUMENT = words(`
  cite citep citet citealp citeauthor ref eqref cref Cref autoref label color unicode vspace hspace
  phantom hphantom vphantom includegraphics
`);

/** Text accents: \"o → ö, through combining marks. */
export const ACCENTS: Record<string, string> = {
  "'": '\u0301',
  '`': '\u0300',
  '"': '\u0308',
  '^': '\u0302',
  '~': '\u0303',
  '=': '\u0304',
  '.': '\u0307',
  u: '\u0306',
  v: '\u030C',
  H: '\u030B',
  c: '\u0327',
  k: '\u0328',
  r: '\u030A',
};

/** Maths accents over their argument. */
export const MATH_ACCENTS: Record<string, string> = {
  hat: '\u0302',
  widehat: '\u0302',
  tilde: '\u0303',
  widetilde: '\u0303',
  Tilde: '\u0303',
  bar: '\u0304',
  dot: '\u0307',
  ddot: '\u0308',
  vec: '\u20D7',
  check: '\u030C',
  breve: '\u0306',
  acute: '\u0301',
  grave: '\u0300',
};

const DOUBLE_STRUCK: Record<string, string> = { C: 'ℂ', H: 'ℍ', N: 'ℕ', P: 'ℙ', Q: 'ℚ', R: 'ℝ', Z: 'ℤ' };
const SCRIPT: Record<string, string> = {
  B: 'ℬ',
  E: 'ℰ',
  F: 'ℱ',
  H: 'ℋ',
  I: 'ℐ',
  L: 'ℒ',
  M: 'ℳ',
  R: 'ℛ',
  e: 'ℯ',
  g: 'ℊ',
  o: 'ℴ',
};
const FRAKTUR: Record<string, string> = { C: 'ℭ', H: 'ℌ', I: 'ℑ', R: 'ℜ', Z: 'ℨ' };

/**
 * Letter alphabets of Unicode's Mathematical Alphanumeric Symbols block: A–Z start at `upper`, a–z at
 * upper + 26; letters that Unicode placed earlier (ℝ, ℒ …) are in the exception table.
 */
const ALPHABETS: Record<string, { upper: number; exceptions: Record<string, string>; digits?: number }> = {
  mathbb: { upper: 0x1d538, exceptions: DOUBLE_STRUCK, digits: 0x1d7d8 },
  mathcal: { upper: 0x1d49c, exceptions: SCRIPT },
  mathscr: { upper: 0x1d49c, exceptions: SCRIPT },
  mathfrak: { upper: 0x1d504, exceptions: FRAKTUR },
};

export function isAlphabet(command: string): boolean {
  return Object.hasOwn(ALPHABETS, command);
}

/** "R" in \mathbb → "ℝ"; characters the alphabet lacks are kept. */
export function toAlphabet(command: string, text: string): string {
  const alphabet = own(ALPHABETS, command);
  if (!alphabet) return text;
  let out = '';
  for (const ch of text) {
    const exception = alphabet.exceptions[ch];
    const code = ch.charCodeAt(0);
    if (exception) out += exception;
    else if (ch >= 'A' && ch <= 'Z') out += String.fromCodePoint(alphabet.upper + code - 65);
    else if (ch >= 'a' && ch <= 'z') out += String.fromCodePoint(alphabet.upper + 26 + code - 97);
    else if (ch >= '0' && ch <= '9' && alphabet.digits)
      out += String.fromCodePoint(alphabet.digits + code - 48);
    else out += ch;
  }
  return out;
}
