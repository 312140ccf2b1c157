import type { SearchablePaper } from './search-config.ts';

/** A handful of hand-made papers for the search tests. */
export function paper(
  id: string,
  fields: Partial<Omit<SearchablePaper, 'authors'>> & { authors?: string[] },
): SearchablePaper {
  return {
    id,
    title: fields.title ?? `Paper ${id}`,
    abstract: fields.abstract ?? '',
    authors: (fields.authors ?? ['A. Nonymous']).map((name) => ({ name, affiliations: [] })),
    listingDate: fields.listingDate === undefined ? '2026-04-15' : fields.listingDate,
    primaryCategory: fields.categories?.[0] ?? 'cs.LG',
    categories: fields.categories ?? ['cs.LG'],
  };
}

export const PAPERS: readonly { paper: SearchablePaper; tags: string[] }[] = [
  {
    paper: paper('2604.00001', {
      title: 'Reinforcement Learning for Tool-Using Agents',
      abstract: 'We train multi-agent systems with reinforcement learning and a learned reward model.',
      authors: ['Jane Doe', 'Wei Li'],
      categories: ['cs.LG', 'cs.AI'],
      listingDate: '2026-04-02',
    }),
    tags: ['rl-for-tool-use', 'reinforcement-learning'],
  },
  {
    paper: paper('2604.00002', {
      title: 'Graph Neural Networks at Scale',
      abstract: 'Message passing on billion-edge graphs. A reward is never mentioned with model here.',
      authors: ['John Smith', 'Jane Roe'],
      categories: ['cs.LG'],
      listingDate: '2026-04-20',
    }),
    tags: ['graph-learning'],
  },
  {
    paper: paper('2604.00003', {
      title: 'A Survey of Retrieval-Augmented Generation',
      abstract:
        'Retrieval augmented generation grounds language models. We survey the reward model literature too.',
      authors: ['Li Wei', 'Marta Müller'],
      categories: ['cs.CL', 'cs.LG'],
      listingDate: '2026-05-01',
    }),
    tags: ['rag'],
  },
  {
    paper: paper('2604.00004', {
      title: 'Robot Manipulation from Demonstrations',
      abstract: 'Imitation learning for dexterous robot hands, with $\\textbf{reinforcement}$ fine-tuning.',
      authors: ['Doe Kim'],
      categories: ['cs.RO'],
      listingDate: null,
    }),
    tags: ['imitation-learning'],
  },
];
