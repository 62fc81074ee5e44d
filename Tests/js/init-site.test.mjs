// A knowledge base started from scratch by an installed kb, in a folder with no site/ theme
// folder: `kb init`, `kb check`, `kb build`, then headless Chromium searches the built site from
// disk (file://) and served under /kb/ (python3 -m http.server), as browser.test.mjs does for
// this repository's site. Skips, saying why, when Chromium or the kb binary is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { execFile, execFileSync, spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { chromium } from './chromium.mjs';

const run = promisify(execFile);
const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const binary = process.env.KB_BINARY || path.join(repo, '.build/debug/kb');
const missing = [
  !chromium && 'Chromium is not installed (apt-get install chromium)',
  !existsSync(binary) && `no kb binary at ${binary}`,
].filter(Boolean);

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--virtual-time-budget=8000'];
const queries = [
  ['版本号排序不对', 'example-sort-version-order-zh'],
  ['버전 정렬', 'example-sort-version-order-ko'],
  ['並び順 おかしい', 'example-sort-version-order-ja'],
  ['sort version numbers wrong order', 'example-sort-version-order'],
];

async function resultIDs(url) {
  const { stdout } = await run(chromium, [...flags, '--dump-dom', url], { maxBuffer: 64 << 20, timeout: 60000 });
  const list = stdout.match(/<ol id="results"[^>]*>([\s\S]*?)<\/ol>/);
  return list ? [...list[1].matchAll(/data-id="([^"]+)"/g)].map((m) => m[1]) : [];
}

if (missing.length) {
  test('a knowledge base started with kb init, in the browser', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const work = mkdtempSync(path.join(tmpdir(), 'kb-init-site-'));
  const prefix = path.join(work, 'prefix');
  const kb = path.join(prefix, 'bin/kb');
  const demo = path.join(work, 'demo');
  const env = { PATH: `${prefix}/bin:/usr/bin:/bin`, HOME: work, NO_COLOR: '1' };

  test.before(() => {
    execFileSync(path.join(repo, 'scripts/install.sh'), [prefix, binary], { stdio: 'ignore' });
    execFileSync(kb, ['init', 'demo'], { cwd: work, env, stdio: 'ignore' });
    assert.ok(!existsSync(path.join(demo, 'site')), 'kb init made a theme folder');
    execFileSync(kb, ['check'], { cwd: demo, env, stdio: 'ignore' });
    execFileSync(kb, ['build'], { cwd: demo, env, stdio: 'ignore' });
    execFileSync(kb, ['build', '--out', path.join(work, 'served/kb'), '--base-url', '/kb/'], { cwd: demo, env, stdio: 'ignore' });
  });
  test.after(() => rmSync(work, { recursive: true, force: true }));

  test('file:// — each language\'s query finds its example first', async () => {
    const base = pathToFileURL(path.join(demo, '_site/index.html')).href;
    for (const [q, expected] of queries) {
      const ids = await resultIDs(`${base}?q=${encodeURIComponent(q)}`);
      assert.equal(ids[0], expected, `${q}: got ${ids.join(', ')}`);
    }
  });

  test('served under /kb/ — the same queries, and the 404 page is styled from the root', async () => {
    const port = 8900 + Math.floor(Math.random() * 90);
    const server = spawn('python3', ['-m', 'http.server', String(port), '--bind', '127.0.0.1', '--directory', path.join(work, 'served')], { stdio: 'ignore' });
    try {
      await new Promise((r) => setTimeout(r, 800));
      for (const [q, expected] of queries) {
        const ids = await resultIDs(`http://127.0.0.1:${port}/kb/index.html?q=${encodeURIComponent(q)}`);
        assert.equal(ids[0], expected, `${q}: got ${ids.join(', ')}`);
      }
      const { stdout } = await run(chromium, [...flags, '--dump-dom', `http://127.0.0.1:${port}/kb/404.html`], { timeout: 60000 });
      assert.match(stdout, /<base href="\/kb\/">/);
    } finally {
      server.kill();
    }
  });
}
