/**
 * The clock the pick and the meeting read, as a rune: it ticks so that an open week closes on screen when
 * its deadline passes, with no server job. It reads the page's Date, which a test replaces with its own
 * clock (Playwright's page.clock) to pass a deadline without waiting. The time is kept as a number: a
 * SvelteDate would not do, as its reactivity wraps the methods of the Date it finds at load, and a test
 * clock's Date inherits them instead.
 */
import { dateAt } from './meeting-format.ts';

const TICK_MS = 5_000;

/** Call while a component initialises; `now` is current to within a tick (and at once on return to the tab). */
export function pickClock(): { readonly now: Date } {
  let ms = $state(Date.now());
  $effect(() => {
    const tick = (): void => {
      ms = Date.now();
    };
    const timer = setInterval(tick, TICK_MS);
    document.addEventListener('visibilitychange', tick);
    return () => {
      clearInterval(timer);
      document.removeEventListener('visibilitychange', tick);
    };
  });
  return {
    get now() {
      return dateAt(ms);
    },
  };
}
