/**
 * A topic of the corpus whose inbox a new member can work through in a test: chosen at run time from what
 * the e2e server imported, so the specs hold whatever corpus `../shared` carries.
 */
import { expect, type APIRequestContext } from '@playwright/test';

export interface TopicSummary {
  slug: string;
  name: string;
}

interface Paper {
  id: string;
  listingDate: string | null;
  tags: { slug: string }[];
}

async function getJson<T>(request: APIRequestContext, path: string): Promise<T> {
  const res = await request.get(path, { timeout: 120_000 });
  expect(res.ok(), `${path} answered ${res.status()}`).toBe(true);
  return (await res.json()) as T;
}

/** The first of the 7 weekdays (listing days) ending at `to`, as the inbox counts a new member's week. */
function firstOfSevenListingDays(to: string): string {
  const day = new Date(`${to}T12:00:00Z`);
  const weekday = () => day.getUTCDay() !== 0 && day.getUTCDay() !== 6;
  while (!weekday()) day.setUTCDate(day.getUTCDate() - 1);
  for (let left = 6; left > 0; left--) {
    day.setUTCDate(day.getUTCDate() - 1);
    while (!weekday()) day.setUTCDate(day.getUTCDate() - 1);
  }
  return day.toISOString().slice(0, 10);
}

/**
 * A topic whose inbox for a new member holds 6 to 12 papers (its newest 40, as the inbox reads, within its
 * last 7 listing days): enough to triage from both ends, few enough to check each. With those papers in the
 * inbox's order.
 */
export async function pickInboxTopic(
  request: APIRequestContext,
): Promise<{ topic: TopicSummary; ids: string[] }> {
  const topics = await getJson<TopicSummary[]>(request, '/api/topics');
  for (const topic of topics) {
    const { paperIds } = await getJson<{ paperIds: string[] }>(request, `/api/topics/${topic.slug}`);
    if (paperIds.length < 6) continue;
    const ids = paperIds.slice(0, 40).join(',');
    const { papers } = await getJson<{ papers: Paper[] }>(request, `/api/papers?ids=${ids}`);
    const listed = papers.filter((p) => p.listingDate && p.tags.some((t) => t.slug === topic.slug));
    const newest = listed
      .map((p) => p.listingDate ?? '')
      .sort()
      .at(-1);
    if (!newest) continue;
    const from = firstOfSevenListingDays(newest);
    const inWindow = listed.filter((p) => (p.listingDate ?? '') >= from);
    if (inWindow.length >= 6 && inWindow.length <= 12) {
      const sorted = inWindow.sort(
        (a, b) => (b.listingDate ?? '').localeCompare(a.listingDate ?? '') || (b.id < a.id ? -1 : 1),
      );
      return { topic, ids: sorted.map((p) => p.id) };
    }
  }
  throw new Error('No topic of the corpus has 6 to 12 papers in its last 7 listing days.');
}
