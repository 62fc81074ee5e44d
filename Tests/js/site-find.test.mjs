// Search that forgives typing, on the built site in headless Chromium (from file://): the home
// page runs ?q= on load and keeps it in the box; a word being typed is completed
// ("scrolledgeappear", "toolbarcolor") and a one-letter typo corrected ("appearence"); every
// other page has a search box in its header, labelled in the page's language, that "/" focuses
// and that leads to the home page's results. Skips, saying why, when Chromium or the built site
// (.build/debug/kb build --clean --out .build/test-site) is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';

const run = promisify(execFile);
const missing = [
  ...browserTestsMissing(),
].filter(Boolean);

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=10000'];

async function dump(url) {
  const { stdout } = await run(chromium, [...flags, '--dump-dom', url], { maxBuffer: 32 << 20, timeout: 90000 });
  return stdout;
}

// Added to the copy's home page: once the results are shown, writes the box's value (a property
// --dump-dom does not show) into the page.
const homeProbe = `<script>
window.addEventListener('load', function () {
  var input = document.getElementById('search'), list = document.getElementById('results');
  var tries = 0;
  (function check() {
    if (!list.hasAttribute('data-query') && ++tries < 50) { setTimeout(check, 100); return; }
    var out = document.createElement('output');
    out.id = 'home-probe';
    out.textContent = input.value;
    document.body.append(out);
  })();
});
</script>`;

/** What the home page shows: the box's value, the list's query, result ids, status and words. */
function homeResults(dom) {
  const value = (dom.match(/<output id="home-probe">([^<]*)<\/output>/) || [])[1];
  const list = dom.match(/<ol id="results"[^>]*>([\s\S]*?)<\/ol>/);
  const query = (dom.match(/<ol id="results"[^>]*data-query="([^"]*)"/) || [])[1];
  const ids = list ? [...list[1].matchAll(/<li class="result"[^>]*data-id="([^"]+)"/g)].map((m) => m[1]) : [];
  const status = (dom.match(/<p id="search-status"[^>]*>([^<]*)<\/p>/) || [])[1];
  return { value, query, ids, status, list: list ? list[1] : '' };
}

// Reports, after load, what the header's search box is and whether "/" focuses it.
const headerProbe = `<script>
window.addEventListener('load', function () {
  var box = document.getElementById('header-search');
  var seen = { hasBox: !!box };
  if (box) {
    var form = box.form;
    var label = document.querySelector('label[for="header-search"]');
    seen.label = label ? label.textContent : null;
    seen.action = form.action;
    seen.method = form.method;
    seen.name = box.name;
    seen.homeBox = !!document.getElementById('search');
    document.body.focus();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true }));
    seen.slashFocuses = document.activeElement === box;
  }
  var out = document.createElement('output');
  out.id = 'header-probe';
  out.textContent = JSON.stringify(seen);
  document.body.append(out);
});
</script>`;

// Types a query into the header's box and submits its form (the page then becomes the home page).
const submitProbe = (query) => `<script>
window.addEventListener('load', function () {
  var box = document.getElementById('header-search');
  box.value = ${JSON.stringify(query)};
  box.form.requestSubmit();
});
</script>`;

if (missing.length) {
  test('search that forgives typing on the site', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const work = mkdtempSync(path.join(tmpdir(), 'kb-site-find-'));
  cpSync(site, work, { recursive: true });
  test.after(() => rmSync(work, { recursive: true, force: true }));
  const home = pathToFileURL(path.join(work, 'index.html')).href;
  const homeFile = path.join(work, 'index.html');
  writeFileSync(homeFile, readFileSync(homeFile, 'utf8').replace('</body>', homeProbe + '</body>'));

  const queries = [
    { name: 'a long identifier being typed', q: 'scrolledgeappear', entry: 'large-title-custom-background' },
    { name: 'an identifier being typed', q: 'toolbarcolor', entry: 'large-title-custom-background' },
    { name: 'a one-letter typo', q: 'appearence', entry: 'scoped-navigation-bar-appearance' },
  ];
  for (const c of queries) {
    test(`?q= runs on load and finds the entry: ${c.name} (${c.q})`, async () => {
      const seen = homeResults(await dump(`${home}?q=${encodeURIComponent(c.q)}`));
      assert.equal(seen.value, c.q, 'the query stays in the box');
      assert.equal(seen.query, c.q);
      assert.ok(seen.ids.includes(c.entry), `${c.entry} not in ${JSON.stringify(seen.ids)}`);
      assert.equal(seen.status, seen.ids.length === 1 ? '1 result' : `${seen.ids.length} results`);
      assert.match(seen.list, /<mark>/, 'the completion or correction is highlighted');
    });
  }

  test('no results says so in the page\'s words, with the query', async () => {
    const seen = homeResults(await dump(`${home}?q=${encodeURIComponent('zzqqxxyy')}`));
    assert.deepEqual(seen.ids, []);
    assert.match(seen.list, /No entry matches “zzqqxxyy”/);
  });

  const pages = [
    { name: 'a zh-Hans entry page', file: 'entries/large-title-custom-background.html', label: '搜索症状、错误信息和 API' },
    { name: 'a ko entry page', file: 'entries/nav-bar-shadow-ios17.html', label: '증상, 오류 메시지, API 검색' },
    { name: 'the symptom index', file: 'symptoms/index.html', label: 'Search symptoms, error messages and APIs' },
    { name: 'the 404 page', file: '404.html', label: 'Search symptoms, error messages and APIs' },
  ];
  for (const p of pages) {
    test(`the header's search box of ${p.name}: labelled, "/" focuses it, a GET form to the home page`, async () => {
      const source = path.join(work, p.file);
      assert.ok(existsSync(source), `${p.file} is not in the built site`);
      const page = path.join(path.dirname(source), `probe-${path.basename(source)}`);
      writeFileSync(page, readFileSync(source, 'utf8').replace('</body>', headerProbe + '</body>'));
      const dom = await dump(pathToFileURL(page).href);
      const found = dom.match(/<output id="header-probe">([^<]*)<\/output>/);
      assert.ok(found, 'the probe did not report');
      const seen = JSON.parse(found[1].replace(/&quot;/g, '"'));
      assert.equal(seen.hasBox, true);
      assert.equal(seen.homeBox, false);
      assert.equal(seen.label, p.label);
      assert.equal(seen.action, home);
      assert.equal(seen.method, 'get');
      assert.equal(seen.name, 'q');
      assert.equal(seen.slashFocuses, true, '"/" did not focus the header search box');
    });
  }

  test('the header search box on an entry page leads to the home page\'s results', async () => {
    const source = path.join(work, 'entries/nav-bar-shadow-ios17.html');
    const page = path.join(work, 'entries/submit-probe.html');
    writeFileSync(page, readFileSync(source, 'utf8').replace('</body>', submitProbe('scrolledgeappear') + '</body>'));
    const seen = homeResults(await dump(pathToFileURL(page).href));
    assert.equal(seen.value, 'scrolledgeappear');
    assert.ok(seen.ids.includes('large-title-custom-background'), JSON.stringify(seen.ids));
  });
}
