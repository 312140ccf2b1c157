import type { LoadRoom } from './sync-load.ts';

/** Fresh groups on a Quire node (as the stock server gets fresh room names), each with its read-write invite. */
export async function createQuireRooms(baseUrl: string, groups: number): Promise<LoadRoom[]> {
  const rooms: LoadRoom[] = [];
  for (let g = 0; g < groups; g += 1) {
    const res = await fetch(`${baseUrl}/api/groups`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name: `Bench group ${g + 1}` }),
    });
    if (res.status !== 201) throw new Error(`Creating a group answered ${res.status}: ${await res.text()}`);
    const group = (await res.json()) as { id: string; invites: { role: string; token: string }[] };
    const token = group.invites.find((i) => i.role === 'read-write')?.token;
    if (!token) throw new Error('The created group came without a read-write invite.');
    rooms.push({ room: group.id, params: { token } });
  }
  return rooms;
}
