/**
 * The two judging briefs of the reader-gap slice (reader-gap-sample.ts), one per way of reading: pool mode
 * as dev-recall-4 was judged, wide mode as dev-set-taxonomy-5 was. They keep those briefs' rules and output
 * keys word for word where they can, so that the mode is the only difference; both point at the criteria file
 * copied into the batch folder, so both kinds of reader judge against the same text.
 */

const OUTPUT = `- Output: one JSON object per line, exactly these keys in this order:
  {"set": "<set>", "paper": "<arXiv id>", "topic": "<slug>", "label": true|false, "borderline": true|false, "why": "<≤ 12 words>", "judge": "<your judge id>"}
  \`why\`: at most 12 words, your own words, naming the deciding fact. Never copy a run of 5+ words from the
  title or abstract. \`borderline\`: true only when the written rules leave real doubt (rule 7); still give your
  best label.`;

const forbidden = (
  dir: string,
  own: string,
) => `- Do NOT open, grep or run anything else in the repository: not the taxonomy or its definitions
  (packages/core/taxonomy), not the tagging engine, not any *.jsonl file of earlier judgments, not the eval.
  Do not run the project's code. You must not know what the engine says.
- In \`${dir}\` open only ${own}: not the other batches, not slice.json, not other judges' files.`;

export function poolBrief(dir: string): string {
  return `# Judging brief: the reader-gap slice, pool mode (gap-pool)

You are a careful research reader. You judge, for each paper in your batch file, whether ONE named topic
applies to it. Nothing else.

Read first, fully: \`${dir}/CRITERIA-taxonomy.md\`, the section "How to judge" (rules 1–9) and the section of
each topic your batch names (\`## <slug> — <Name>\`), including its In / Out / Borderline / "vs" lines. Also read
the section of any topic a "vs" line points to, so you know where the boundary is.

Your batch is \`${dir}/pool-A.md\` or \`${dir}/pool-B.md\`, as you are told. It is split by topic: each heading
\`## Topic: <slug> — <Name>\` names the topic, and every paper under it (\`### <arXiv id>\`, then title,
categories, abstract) is judged for that topic alone.

Strict rules (the set is only worth anything if these hold):
- Judge from the title and abstract in the batch file, against the written criteria, with your field knowledge.
${forbidden(dir, 'this brief, CRITERIA-taxonomy.md and your own batch')}
- Judge every paper in your batch, in order, once, for the topic of the heading above it.
${OUTPUT}
  Use \`"set": "gap-pool"\`.
- Write the file you are told to write with a small script or by hand, then check it: valid JSON per line, one
  line per paper of the batch, ids and slugs exactly as in the batch. Report the number of lines, trues and
  borderlines per topic when done.
`;
}

export function wideBrief(dir: string): string {
  return `# Judging brief: the reader-gap slice, wide mode (gap-wide)

You are a careful research reader. For each paper in your batch you judge which research topics apply.

Your batch is \`${dir}/wide-A.md\` or \`${dir}/wide-B.md\`, as you are told. Read first, fully: the criteria
file given with your batch (\`${dir}/criteria-wide-A.md\` for wide-A, \`criteria-wide-B.md\` for wide-B): its "How
to judge" rules (1–9) and the section of every topic your batch names (In / Out / Borderline / "vs" lines). The
whole topic list (slug — name) is \`${dir}/topics.md\`; the full criteria for any topic are in
\`${dir}/CRITERIA-taxonomy.md\` (read a topic's section there before you ADD that topic).

For each paper (\`### <arXiv id>\`, then title, categories, abstract, then "Candidate topics"):
1. Judge EVERY candidate topic listed under it: true or false (rule 2: the topic describes the paper's main
   contribution or a substantial, explicit part of it; passing mentions, background, baselines, application
   lists, boilerplate are false; umbrella topics per rule 5; the model studied-or-used rule 6).
2. Then ADD any other topic from topics.md that clearly applies (true) but is not among the candidates: one
   line each with label true. Add only clear cases, after reading that topic's section.
The candidate list is a shuffled mix of topics from several sources; it says nothing about which apply.

Strict rules (the set is only worth anything if these hold):
- Judge from the title and abstract in the batch, against the written criteria, with your field knowledge.
${forbidden(dir, 'this brief, your batch, its criteria file, topics.md and CRITERIA-taxonomy.md')}
${OUTPUT}
  Use \`"set": "gap-wide"\`.
- Check your file before you finish: valid JSON per line; every candidate of every paper judged exactly once,
  ids and slugs exactly as in the batch; added topics are real slugs from topics.md.
  Report: papers, lines, trues, borderlines, topics added.
`;
}
