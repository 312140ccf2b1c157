import type { RawPaper } from '@quire/core';

/** Four papers and their tags that FtsSearch's tests (fts-search.test, store/search-readers.contract.test) search. */

export const PAPERS: RawPaper[] = [
  {
    id: '2604.00001',
    title: 'Reinforcement Learning for Tool-Using Agents',
    abstract: 'We train multi-agent systems with reinforcement learning and a learned reward model.',
    authors: ['Jane Doe', 'Wei Li'],
    categories: ['cs.LG', 'cs.AI'],
    listingDate: '2026-04-02',
  },
  {
    id: '2604.00002',
    title: 'Graph Neural Networks at Scale',
    abstract: 'Message passing on billion-edge graphs. A reward is never mentioned with model here.',
    authors: ['John Smith', 'Jane Roe'],
    categories: ['cs.LG'],
    listingDate: '2026-04-20',
  },
  {
    id: '2604.00003',
    title: 'A Survey of Retrieval-Augmented Generation',
    abstract:
      'Retrieval augmented generation grounds language models. We survey the reward model literature too.',
    authors: ['Li Wei', 'Marta Müller'],
    categories: ['cs.CL', 'cs.LG'],
    listingDate: '2026-05-01',
  },
  {
    id: '2604.00004',
    title: 'Robot Manipulation from Demonstrations',
    abstract: 'Imitation learning for dexterous robot hands, with $\\textbf{reinforcement}$ fine-tuning.',
    authors: ['Doe Kim'],
    categories: ['cs.RO'],
    listingDate: null,
  },
];

/** Each paper's stored tags (rl-for-tool-use's broader topics are the taxonomy's). */
export const TAGS: readonly { id: string; topics: readonly string[] }[] = [
  { id: '2604.00001', topics: ['rl-for-tool-use'] },
  { id: '2604.00003', topics: ['rl-for-tool-use'] },
  { id: '2604.00004', topics: ['imitation-learning'] },
];
