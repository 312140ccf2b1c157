import { error } from '@sveltejs/kit';
import { failLoad } from '$lib/api/load-error.ts';
import { paperCache } from '$lib/api/paper-cache.ts';
import type { PageLoad } from './$types';

export const load = (async ({ params, fetch }) => {
  if (!params.id) error(404, { message: 'No paper id was given.', subject: 'paper' });
  try {
    const { value: paper, savedAt } = await paperCache.load(fetch, params.id);
    return { paper, savedAt };
  } catch (err) {
    return failLoad(err, 'paper');
  }
}) satisfies PageLoad;
