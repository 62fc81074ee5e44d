// The Chromium the browser tests drive (Debian's `chromium`, or another name on the PATH), or
// null when there is none (the tests then skip, saying why), and what the browser tests share:
// the repository, the built site they open, and the reasons they cannot run here.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const chromium = ['chromium', 'chromium-browser', 'google-chrome'].map((name) => {
  try { return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim(); } catch { return null; }
}).find(Boolean);

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** The site `make test` builds before the node tests (KB_TEST_SITE to use another). */
export const site = process.env.KB_TEST_SITE || path.join(repo, '.build/test-site');

/** Why a browser test over the built site cannot run here (none: it can); `page` must exist. */
export function browserTestsMissing(page = 'index.html') {
  return [
    !chromium && 'Chromium is not installed (apt-get install chromium)',
    !existsSync(path.join(site, page)) && `no built site at ${site}`,
  ].filter(Boolean);
}
