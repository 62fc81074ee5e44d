// The home page's search and the keyboard, in headless Chromium: "/" puts the cursor in the search
// box; while an input method converts (compositionstart … compositionend) no search runs, and the
// Enter that commits the conversion (isComposing, keyCode 229) opens nothing; once committed the
// search runs. A probe script added to a copy of the built site drives the page and writes what it
// saw into the page for --dump-dom. Skips, saying why, when Chromium or the built site is missing.
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

// Runs after the deferred scripts (load); each step waits on timers, which virtual time runs.
const probe = `<script>
window.addEventListener('load', function () {
  var input = document.getElementById('search'), list = document.getElementById('results');
  var seen = {};
  function report() {
    var out = document.createElement('output');
    out.id = 'keys-probe';
    out.textContent = JSON.stringify(seen);
    document.body.append(out);
  }
  function wait(ms) { return new Promise(function (done) { setTimeout(done, ms); }); }
  (async function () {
    document.body.focus();
    document.body.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true, cancelable: true }));
    seen.slashFocuses = document.activeElement === input;
    input.dispatchEvent(new CompositionEvent('compositionstart', { bubbles: true }));
    input.value = QUERY;
    input.dispatchEvent(new InputEvent('input', { bubbles: true, isComposing: true }));
    await wait(400);
    seen.resultsWhileComposing = list.querySelectorAll('a.result-title').length;
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, isComposing: true, bubbles: true, cancelable: true }));
    input.dispatchEvent(new CompositionEvent('compositionend', { bubbles: true, data: QUERY }));
    for (var i = 0; i < 40 && !list.querySelector('a.result-title'); i++) await wait(100);
    seen.resultsAfterCommit = list.querySelectorAll('a.result-title').length;
    var status = document.getElementById('search-status');
    seen.status = status ? status.textContent : null;
    seen.statusRole = status ? status.getAttribute('role') : null;
    seen.listLive = list.getAttribute('aria-live');
    var meta = list.querySelector('.result-meta');
    seen.meta = meta ? meta.textContent : null;
    input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', keyCode: 229, isComposing: true, bubbles: true, cancelable: true }));
    await wait(400);
    seen.stayed = true;
    report();
  })();
});
</script>`;

if (missing.length) {
  test('search keys and input methods', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const cases = [
    { name: 'Japanese (kana converted to kanji)', query: '太字にならない' },
    { name: 'Chinese (pinyin converted to hanzi)', query: '大标题看不见' },
    { name: 'Korean (Hangul composed)', query: '네비게이션 바 그림자' },
  ];
  const work = mkdtempSync(path.join(tmpdir(), 'kb-search-keys-'));
  cpSync(site, work, { recursive: true });
  test.after(() => rmSync(work, { recursive: true, force: true }));

  for (const c of cases) {
    test(`"/" focuses search; an IME's composition and its Enter do nothing until committed: ${c.name}`, async () => {
      const page = path.join(work, `keys-${cases.indexOf(c)}.html`);
      const html = readFileSync(path.join(site, 'index.html'), 'utf8');
      writeFileSync(page, html.replace('</body>', probe.replace(/QUERY/g, JSON.stringify(c.query)) + '</body>'));
      const { stdout } = await run(chromium, [...flags, '--dump-dom', pathToFileURL(page).href], { maxBuffer: 32 << 20, timeout: 90000 });
      const found = stdout.match(/<output id="keys-probe">([^<]*)<\/output>/);
      assert.ok(found, 'the probe did not report: the page navigated away (an Enter opened a result) or the probe failed');
      const seen = JSON.parse(found[1].replace(/&quot;/g, '"'));
      assert.equal(seen.slashFocuses, true, '"/" did not focus the search box');
      assert.equal(seen.resultsWhileComposing, 0, 'a search ran on unconverted input');
      assert.ok(seen.resultsAfterCommit > 0, `no results once the conversion was committed (${c.query})`);
      assert.equal(seen.stayed, true);
      // The count is announced in a status region; the list is not a live region.
      assert.equal(seen.statusRole, 'status');
      assert.equal(seen.status, seen.resultsAfterCommit === 1 ? '1 result' : `${seen.resultsAfterCommit} results`);
      assert.equal(seen.listLive, null);
      // Language names, not codes, and no English "matched in".
      assert.match(seen.meta, /简体中文|한국어|日本語|English|繁體中文/, seen.meta);
      assert.ok(!/zh-Hans|matched in/.test(seen.meta), seen.meta);
    });
  }
}
