import { redirect } from '@sveltejs/kit';
import { resolve } from '$app/paths';
import type { PageLoad } from './$types';

/**
 * /groups/<id> is the queue tab's address. Redirected before the page mounts, so every tab is one route
 * and moving between tabs never remounts the group page (a remount while offline left the sync socket
 * down after the network came back).
 */
export const load: PageLoad = ({ params }) => {
  redirect(307, resolve('/groups/[id]/[tab]', { id: params.id, tab: 'queue' }));
};
