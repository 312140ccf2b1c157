import { sveltekit } from '@sveltejs/kit/vite';
import { defineConfig } from 'vite';
import { routeChunks } from './src/bundling/route-chunks.ts';

export default defineConfig({
  plugins: [sveltekit(), routeChunks()],
  server: {
    // The group sync socket lives on the server's port too.
    proxy: { '/api': 'http://127.0.0.1:8787', '/yjs': { target: 'ws://127.0.0.1:8787', ws: true } },
  },
});
