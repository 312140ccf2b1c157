/**
 * Code and model links named in a paper's abstract or comment: GitHub and GitLab repositories, Hugging Face
 * models, datasets and spaces. Each link is cut to the repository it names:
 * "https://github.com/o/r/tree/main/src" and "github.com/o/r.git" are both "https://github.com/o/r".
 * Repository level was chosen over keeping deeper paths because it deduplicates the several spellings one
 * paper uses and survives branch renames; a link into a subfolder of a large shared repository loses its
 * subfolder, which the paper itself still shows.
 */

// Not preceded by a host or path character, so "gist.github.com" and "example.org/github.com/…" do not match.
const LINK =
  /(?<![\w.@/-])(?:https?:\/\/)?(?:www\.)?(github\.com|gitlab\.com|huggingface\.co|hf\.co)\/([^\s<>"'`{}()[\]\\|^]*)/gi;

// Any of the hosts, tested before LINK's slower scan: most abstracts name none. Unescaping LATEX_ESCAPE
// cannot make one appear, since no host contains the characters it unescapes.
const ANY_HOST = /github\.com|gitlab\.com|huggingface\.co|hf\.co/i;

// LaTeX escapes that abstracts use inside URLs ("my\_repo").
const LATEX_ESCAPE = /\\([_%#&~])/g;

const NAME = /^[A-Za-z0-9._-]+$/;
const GITHUB_OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$/;

/** First path segments that are GitHub's own pages rather than a user or organisation. */
const GITHUB_RESERVED = new Set([
  'about',
  'apps',
  'collections',
  'enterprise',
  'explore',
  'features',
  'login',
  'marketplace',
  'orgs',
  'pricing',
  'search',
  'settings',
  'site',
  'sponsors',
  'topics',
]);
const GITLAB_RESERVED = new Set(['api', 'dashboard', 'explore', 'groups', 'help', 'search', 'users']);
/** Path words that end a GitLab project path written without the "/-/" separator. */
const GITLAB_DEEP = new Set(['blob', 'commits', 'issues', 'merge_requests', 'raw', 'tree', 'wikis']);
/** First path segments that are Hugging Face's own pages ("huggingface.co/papers/2604.12345" is no model). */
const HF_RESERVED = new Set([
  'api',
  'blog',
  'chat',
  'collections',
  'docs',
  'enterprise',
  'join',
  'learn',
  'login',
  'models',
  'new',
  'organizations',
  'papers',
  'posts',
  'pricing',
  'search',
  'settings',
  'tasks',
]);
/** Segments that follow a Hugging Face repository name and point inside it. */
const HF_DEEP = new Set(['blob', 'commit', 'commits', 'discussions', 'raw', 'resolve', 'tree', 'viewer']);

function withoutGitSuffix(name: string): string {
  return name.replace(/\.git$/i, '');
}

function isName(segment: string | undefined): segment is string {
  return segment !== undefined && NAME.test(segment) && segment !== '.' && segment !== '..';
}

function githubRepo(segments: string[]): string | null {
  const [owner, repo] = segments;
  if (owner === undefined || !GITHUB_OWNER.test(owner) || GITHUB_RESERVED.has(owner.toLowerCase()))
    return null;
  const name = repo === undefined ? '' : withoutGitSuffix(repo);
  // A bare "github.com/owner" is usually a person's profile, not the paper's code.
  return isName(name) ? `https://github.com/${owner}/${name}` : null;
}

function gitlabProject(segments: string[]): string | null {
  const path: string[] = [];
  for (const segment of segments) {
    if (segment === '-' || (path.length >= 2 && GITLAB_DEEP.has(segment))) break;
    path.push(segment);
  }
  const last = path.pop();
  if (last !== undefined) path.push(withoutGitSuffix(last));
  const first = path[0];
  if (path.length < 2 || first === undefined || GITLAB_RESERVED.has(first.toLowerCase())) return null;
  return path.every(isName) ? `https://gitlab.com/${path.join('/')}` : null;
}

function huggingFaceRepo(segments: string[]): string | null {
  const [first, ...rest] = segments;
  if (first === undefined || HF_RESERVED.has(first.toLowerCase())) return null;
  const kind = first.toLowerCase();
  const isCollection = kind === 'datasets' || kind === 'spaces';
  const [owner, name] = isCollection ? rest : segments;
  if (!isName(owner)) return null;
  const prefix = isCollection ? `${kind}/` : '';
  if (isName(name) && !HF_DEEP.has(name)) return `https://huggingface.co/${prefix}${owner}/${name}`;
  // Some early datasets have no owner ("datasets/squad"); a lone model-like segment is an organisation page.
  return kind === 'datasets' ? `https://huggingface.co/datasets/${owner}` : null;
}

function repositoryOf(host: string, path: string): string | null {
  const trimmed = path.replace(/[?#].*$/, '').replace(/[.,;:!?*]+$/, '');
  const segments = trimmed.split('/').filter((segment) => segment !== '');
  switch (host.toLowerCase()) {
    case 'github.com':
      return githubRepo(segments);
    case 'gitlab.com':
      return gitlabProject(segments);
    default:
      return huggingFaceRepo(segments);
  }
}

/**
 * Repository URLs named in the given texts, https, without trailing punctuation, deduplicated ignoring case
 * (all three hosts treat names case-insensitively), in order of first appearance. Absent texts are skipped.
 */
export function findCodeLinks(...texts: (string | null | undefined)[]): string[] {
  const seen = new Set<string>();
  const links: string[] = [];
  for (const text of texts) {
    if (!text || !ANY_HOST.test(text)) continue;
    for (const match of text.replace(LATEX_ESCAPE, '$1').matchAll(LINK)) {
      const link = repositoryOf(match[1] ?? '', match[2] ?? '');
      if (link === null || seen.has(link.toLowerCase())) continue;
      seen.add(link.toLowerCase());
      links.push(link);
    }
  }
  return links;
}
