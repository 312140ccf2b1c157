import { readStored, writeStored } from './local-store.ts';

const FOLLOWED_KEY = 'quire.followed';

function parse(raw: string | null): string[] {
  if (!raw) return [];
  try {
    const value: unknown = JSON.parse(raw);
    return Array.isArray(value) ? value.filter((s): s is string => typeof s === 'string') : [];
  } catch {
    return [];
  }
}

/**
 * The topics this reader follows, by slug, in the order followed. Kept in localStorage until groups exist,
 * when following will belong to the active group instead.
 */
export class FollowManager {
  #slugs = $state<string[]>([]);

  constructor() {
    this.#slugs = parse(readStored(FOLLOWED_KEY));
    if (typeof window !== 'undefined') {
      // Follow in one tab, see it in the others.
      window.addEventListener('storage', (event) => {
        if (event.key === FOLLOWED_KEY) this.#slugs = parse(event.newValue);
      });
    }
  }

  get slugs(): readonly string[] {
    return this.#slugs;
  }

  isFollowing(slug: string): boolean {
    return this.#slugs.includes(slug);
  }

  follow(slug: string): void {
    if (!this.isFollowing(slug)) this.#save([...this.#slugs, slug]);
  }

  unfollow(slug: string): void {
    this.#save(this.#slugs.filter((s) => s !== slug));
  }

  toggle(slug: string): void {
    if (this.isFollowing(slug)) this.unfollow(slug);
    else this.follow(slug);
  }

  #save(slugs: string[]): void {
    this.#slugs = slugs;
    writeStored(FOLLOWED_KEY, JSON.stringify(slugs));
  }
}

export const followManager = new FollowManager();
