/**
 * A second recall pool for RL for LLM Agents (and Agentic RL), the way a reader would search for the
 * topic: papers whose title or abstract names an RL concept and an agent concept anywhere. The first pool
 * (named concepts such as "agentic RL") holds only a third of what the engine tags, so on its own it
 * would overstate recall. Written before any paper of this pool was judged.
 */
const RL =
  /(?<![A-Za-z])(reinforcement learning|RL|GRPO|PPO|RLVR|policy optimi[sz]ation|policy gradients?|rewards?)(?![A-Za-z])/i;
const AGENT =
  /(?<![A-Za-z])(agents?|agentic|tool[- ]?(use|using|calling|calls?)|multi-turn|web navigation|GUI)(?![A-Za-z])/i;

export const RL_AGENTS_POOL_SEED = 20_261_202;
export const RL_AGENTS_POOL_SAMPLE = 100;

export function inRlAgentsPool(paper: { title: string; abstract: string }): boolean {
  const text = `${paper.title}\n${paper.abstract}`;
  return RL.test(text) && AGENT.test(text);
}
