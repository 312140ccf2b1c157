/** One line of the listing corpus's JSON Lines shape, for the files tests and benchmarks make at run time. */
export function paperLine(n: number, abstract = `Abstract ${n}.`): string {
  return JSON.stringify({
    id: `2604.${String(n).padStart(5, '0')}`,
    date: '2026-04-01',
    title: `Paper ${n}`,
    authors: ['Ada Lovelace'],
    categories: ['cs.LG'],
    abstract,
  });
}
