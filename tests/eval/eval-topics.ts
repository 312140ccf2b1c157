/**
 * The topics whose precision and recall `pnpm eval tagging` reports on the locked test set: the twelve of
 * the first evaluation, plus the eight largest by direct tags when the set was drawn (2026-12-01).
 */
export const EVAL_TOPICS = [
  'rl-for-llm-agents',
  'agentic-rl',
  'credit-assignment-in-rl',
  'process-reward-models',
  'multi-agent-llm-systems',
  'agentic-rag',
  'group-relative-policy-optimization',
  'llm-safety',
  '3d-gaussian-splatting',
  'video-generation',
  'vision-language-action-models',
  'imitation-learning',
  'computer-vision',
  'large-language-models',
  'ai-agents',
  'multimodal-learning',
  'vision-language-models',
  'llm-reasoning',
  'llm-agents',
  'reinforcement-learning',
] as const;
