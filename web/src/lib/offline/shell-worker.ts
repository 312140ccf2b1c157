/**
 * Registers the offline app shell (src/service-worker) once the first page is on screen. At install the worker
 * fetches the whole build, ~100 files, over the same six connections to the server as the page: registered
 * at the window's load, as SvelteKit does by default, those fetches queued ahead of the route's own scripts,
 * style sheets and papers, which the single-page app asks for only after it has started.
 */
import { dev } from '$app/environment';
import { asset } from '$app/paths';

export function registerShellWorker(): void {
  if (!('serviceWorker' in navigator)) return;
  const register = () => {
    // Vite serves the worker as a module in development; the build is a classic script.
    navigator.serviceWorker
      .register(asset('/service-worker.js'), { type: dev ? 'module' : 'classic' })
      .catch(() => {
        // Without a worker the app still works online; offline it says it cannot reach the server.
      });
  };
  // After the load event and in an idle moment: the page's first render may still be reading its papers.
  const whenIdle = () => {
    if ('requestIdleCallback' in window) requestIdleCallback(register, { timeout: 2000 });
    else setTimeout(register, 0);
  };
  if (document.readyState === 'complete') whenIdle();
  else addEventListener('load', whenIdle, { once: true });
}
