// A real browser: headless Chromium opens the built site and searches the development queries,
// from disk (file://) and from a server under a sub-path (kb build --base-url /kb/ served by
// python3 -m http.server). Also saves screenshots of an entry page and of search results into
// .build/screenshots/ for people to look at. Skips, saying why, when Chromium, the kb binary,
// the built site or the queries are missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, mkdirSync } from 'node:fs';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';

const run = promisify(execFile);
const kb = process.env.KB_BINARY || path.join(repo, '.build/debug/kb');
// The shared development data: KB_SHARED_DIR, ../shared beside the checkout, or /work/shared.
const queriesFile = [process.env.KB_SHARED_DIR, path.join(repo, '../shared'), '/work/shared']
  .filter(Boolean).map((d) => path.join(d, 'queries/dev.tsv')).find((f) => existsSync(f)) || path.join(repo, '../shared/queries/dev.tsv');

const missing = [
  ...browserTestsMissing(),
  !existsSync(kb) && `no kb binary at ${kb}`,
  !existsSync(queriesFile) && `no development queries at ${queriesFile}`,
].filter(Boolean);

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--virtual-time-budget=8000'];

async function dumpDOM(url) {
  const { stdout } = await run(chromium, [...flags, '--dump-dom', url], { maxBuffer: 64 << 20, timeout: 60000 });
  return stdout;
}

/** Ids of the results list, in order. */
function resultIDs(dom) {
  const list = dom.match(/<ol id="results"[^>]*>([\s\S]*?)<\/ol>/);
  if (!list) return [];
  return [...list[1].matchAll(/data-id="([^"]+)"/g)].map((m) => m[1]);
}

/** Runs `work` over `items`, `width` at a time. */
async function pool(items, width, work) {
  const out = new Array(items.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < items.length) { const i = next++; out[i] = await work(items[i]); }
  }));
  return out;
}

if (missing.length) {
  test('browser search', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const rows = readFileSync(queriesFile, 'utf8').split('\n').filter((l) => l && !l.startsWith('#')).map((l) => l.split('\t'));
  const checked = rows;

  test('file:// — the first result of every query is its entry', async () => {
    const base = pathToFileURL(path.join(site, 'index.html')).href;
    const results = await pool(checked, 2, ([q]) => dumpDOM(`${base}?q=${encodeURIComponent(q)}`).then(resultIDs));
    checked.forEach(([q, expected], i) => assert.equal(results[i][0], expected, `${q}: got ${results[i].join(', ')}`));
  });

  test('served under /kb/ — the first result of every query is its entry', async () => {
    const root = mkdtempSync(path.join(tmpdir(), 'kb-browser-'));
    const server = { process: null };
    try {
      execFileSync(kb, ['build', '--out', path.join(root, 'kb'), '--base-url', '/kb/'], { cwd: repo, stdio: 'ignore' });
      const port = 8700 + Math.floor(Math.random() * 200);
      server.process = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', root], { stdio: 'ignore' });
      await new Promise((r) => setTimeout(r, 800));
      const results = await pool(checked, 2, ([q]) => dumpDOM(`http://127.0.0.1:${port}/kb/index.html?q=${encodeURIComponent(q)}`).then(resultIDs));
      checked.forEach(([q, expected], i) => assert.equal(results[i][0], expected, `${q}: got ${results[i].join(', ')}`));
    } finally {
      if (server.process) server.process.kill();
      rmSync(root, { recursive: true, force: true });
    }
  });

  test('screenshots of an entry page and of search results', async () => {
    const out = path.join(repo, '.build/screenshots');
    mkdirSync(out, { recursive: true });
    const shots = [
      ['entry-large-title-custom-background.png', pathToFileURL(path.join(site, 'entries/large-title-custom-background.html')).href],
      ['search-results.png', `${pathToFileURL(path.join(site, 'index.html')).href}?q=${encodeURIComponent('네비게이션 바 그림자')}`],
    ];
    for (const [name, url] of shots) {
      await run(chromium, [...flags, '--window-size=1280,1600', `--screenshot=${path.join(out, name)}`, url], { timeout: 60000 });
      assert.ok(existsSync(path.join(out, name)), name);
    }
  });
}
