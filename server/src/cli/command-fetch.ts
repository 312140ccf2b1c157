import { parseArgs } from 'node:util';
import { QuireError } from '../errors.ts';
import { fetchPaper } from '../harvest/fetch-paper.ts';
import { harvestTarget } from '../harvest/harvest-target.ts';
import { PoliteHttpClient } from '../harvest/http-client.ts';
import { openStore } from '../store/open-store.ts';
import { baseConfig, writeLine, type CliContext } from './cli-context.ts';

export async function runFetch(ctx: CliContext): Promise<number> {
  const { values, positionals } = parseArgs({
    args: ctx.args,
    options: { api: { type: 'string' }, json: { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const [idOrUrl] = positionals;
  if (!idOrUrl || positionals.length > 1) {
    throw new QuireError('bad-input', 'Give one arXiv id or URL, e.g. `pnpm quire fetch 2604.12345`.');
  }
  const config = baseConfig(ctx);
  const store = openStore(ctx.dbPath);
  try {
    const paper = await fetchPaper(idOrUrl, {
      apiUrl: values.api ?? config.apiUrl,
      client: new PoliteHttpClient({ minIntervalMs: config.harvestDelaySeconds * 1000 }),
      target: harvestTarget(store),
    });
    if (values.json) writeLine(ctx.stdout, JSON.stringify(paper));
    else writeLine(ctx.stdout, `${paper.id} (${paper.primaryCategory}) ${paper.title} — stored.`);
    return 0;
  } finally {
    store.close();
  }
}
