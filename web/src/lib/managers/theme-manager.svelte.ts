import { readStored, writeStored } from './local-store.ts';

export type Theme = 'light' | 'dark';

/** Also read by the inline script in app.html, which sets the theme before the first paint. */
export const THEME_KEY = 'quire.theme';

function isTheme(value: string | null): value is Theme {
  return value === 'light' || value === 'dark';
}

/**
 * Light or dark: the system's preference until the reader picks one with the toggle, then that choice,
 * kept in localStorage. The theme is applied as `data-theme` on <html>, which the stylesheet reads.
 */
export class ThemeManager {
  #chosen = $state<Theme | null>(null);
  #systemDark = $state(false);

  constructor() {
    const stored = readStored(THEME_KEY);
    this.#chosen = isTheme(stored) ? stored : null;
    if (typeof matchMedia === 'function') {
      const query = matchMedia('(prefers-color-scheme: dark)');
      this.#systemDark = query.matches;
      query.addEventListener('change', (event) => {
        this.#systemDark = event.matches;
        this.apply();
      });
    }
    if (typeof window !== 'undefined') {
      // Another tab toggled the theme.
      window.addEventListener('storage', (event) => {
        if (event.key !== THEME_KEY) return;
        this.#chosen = isTheme(event.newValue) ? event.newValue : null;
        this.apply();
      });
    }
  }

  get theme(): Theme {
    return this.#chosen ?? (this.#systemDark ? 'dark' : 'light');
  }

  /** True until the reader has picked a theme. */
  get followsSystem(): boolean {
    return this.#chosen === null;
  }

  set(theme: Theme): void {
    this.#chosen = theme;
    writeStored(THEME_KEY, theme);
    this.apply();
  }

  toggle(): void {
    this.set(this.theme === 'dark' ? 'light' : 'dark');
  }

  apply(): void {
    if (typeof document !== 'undefined') document.documentElement.dataset.theme = this.theme;
  }
}

export const themeManager = new ThemeManager();
