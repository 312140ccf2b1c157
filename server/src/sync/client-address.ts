/**
 * The key under which connections count as one client for the per-address limits: an IPv4 address as
 * is (also when it arrives mapped into IPv6), an IPv6 address by its /64, since one host is usually
 * handed a whole /64 and could otherwise pick a fresh address per connection.
 */
export function addressKey(remote: string | undefined): string {
  if (!remote) return 'unknown';
  const mapped = /^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i.exec(remote);
  if (mapped?.[1]) return mapped[1];
  if (!remote.includes(':')) return remote;
  const address = remote.split('%')[0] ?? remote; // drop a zone id (fe80::1%eth0)
  const [head = '', tail] = address.split('::');
  const groups = (part: string) => (part === '' ? [] : part.split(':'));
  const front = groups(head);
  const back = tail === undefined ? [] : groups(tail);
  const width = (g: string[]) => g.reduce((n, x) => n + (x.includes('.') ? 2 : 1), 0);
  const all = [...front, ...Array<string>(Math.max(0, 8 - width(front) - width(back))).fill('0'), ...back];
  return `${all
    .slice(0, 4)
    .map((g) => parseInt(g, 16).toString(16))
    .join(':')}::/64`;
}
