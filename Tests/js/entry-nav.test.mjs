// An entry page's navigation in headless Chromium, at a desktop width (1280 px) and a phone width
// (390 px): the table of contents is sticky beside the content on the wide screen (and still in
// view after scrolling far down), and folded in a closed <details> on the narrow one; the "#" link
// of a heading is hidden until it gets focus. A copy of the built page, with a probe script
// added, is shown in an <iframe> of the width under test (its media queries and sticky boxes go
// by the frame's own viewport; a headless window cannot be narrower than 500 px); the probe
// measures and posts what it saw to the outer page, which writes it for --dump-dom. Skips, saying
// why, when Chromium or the built site (.build/test-site) is missing.
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

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--hide-scrollbars', '--virtual-time-budget=4000'];

const probe = `<script>
window.addEventListener('load', function () {
  var seen = { width: window.innerWidth };
  var side = document.querySelector('nav.toc-side'), fold = document.querySelector('details.toc-fold');
  var article = document.querySelector('article.entry');
  function box(el) { var r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width, height: r.height }; }
  seen.side = side && { display: getComputedStyle(side).display, position: getComputedStyle(side).position, box: box(side),
                        links: side.querySelectorAll('a[href^="#"]').length };
  seen.fold = fold && { display: getComputedStyle(fold).display, open: fold.open, box: box(fold),
                        links: fold.querySelectorAll('nav a[href^="#attempt-"]').length,
                        listShown: fold.querySelector('nav').checkVisibility() };
  seen.article = box(article);
  seen.pageHeight = document.documentElement.scrollHeight;
  window.scrollTo({ top: Math.floor(document.documentElement.scrollHeight * 0.6), behavior: 'instant' });
  seen.sideAfterScroll = side && box(side);
  seen.scrolled = window.scrollY;
  window.scrollTo({ top: 0, behavior: 'instant' });
  var anchor = document.querySelector('#problem > h2 > a.heading-anchor');
  seen.anchor = anchor && { label: anchor.getAttribute('aria-label'), before: getComputedStyle(anchor).opacity };
  if (anchor) { anchor.focus(); seen.anchor.focused = document.activeElement === anchor; seen.anchor.after = getComputedStyle(anchor).opacity; }
  parent.postMessage(JSON.stringify(seen), '*');
});
</script>`;

// The outer page: one frame of the width under test, and where the probe's report goes.
const frame = (src, width) => `<!DOCTYPE html><html><body style="margin:0">
<iframe src="${src}" width="${width}" height="900" style="border:0;display:block"></iframe>
<script>
window.addEventListener('message', function (event) {
  var out = document.createElement('output');
  out.id = 'nav-probe';
  out.textContent = event.data;
  document.body.append(out);
});
</script></body></html>`;

const pages = [
  { name: 'ko', page: 'nav-bar-shadow-ios17.html' },
  { name: 'zh-Hans', page: 'gb2312-gbk-gb18030-iconv.html' },
];

async function measure(work, c, width) {
  const name = `nav-${c.name}-${width}`;
  const html = readFileSync(path.join(site, 'entries', c.page), 'utf8');
  // The copy sits beside the built page, so its relative links still work.
  writeFileSync(path.join(work, 'entries', `${name}.html`), html.replace('</body>', `${probe}</body>`));
  const outer = path.join(work, 'entries', `${name}-frame.html`);
  writeFileSync(outer, frame(`${name}.html`, width));
  const { stdout } = await run(chromium, [...flags, '--window-size=1400,1000', '--dump-dom', pathToFileURL(outer).href],
    { maxBuffer: 32 << 20, timeout: 90000 });
  const found = stdout.match(/<output id="nav-probe">([^<]*)<\/output>/);
  assert.ok(found, 'the probe did not report');
  return JSON.parse(found[1].replace(/&quot;/g, '"').replace(/&amp;/g, '&'));
}

if (missing.length) {
  test('entry page navigation', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const work = mkdtempSync(path.join(tmpdir(), 'kb-entry-nav-'));
  cpSync(site, work, { recursive: true });
  test.after(() => rmSync(work, { recursive: true, force: true }));

  for (const c of pages) {
    test(`at 1280 px the contents are sticky beside the ${c.name} entry`, async () => {
      const seen = await measure(work, c, 1280);
      assert.equal(seen.width, 1280, `the window is ${seen.width} px wide`);
      assert.ok(seen.side, 'no nav.toc-side');
      assert.equal(seen.side.position, 'sticky');
      assert.notEqual(seen.side.display, 'none');
      assert.ok(seen.side.links > 5, `the contents have ${seen.side.links} links`);
      assert.ok(seen.side.box.width > 100 && seen.side.box.height > 100, JSON.stringify(seen.side.box));
      assert.ok(seen.side.box.left >= seen.article.right, `the contents (${seen.side.box.left}) are not beside the entry (${seen.article.right})`);
      assert.ok(seen.side.box.right <= 1280, 'the contents overflow the page');
      // Far down a page of thousands of pixels the contents are still in view.
      assert.ok(seen.pageHeight > 3000 && seen.scrolled > 2000, `scrolled ${seen.scrolled} of ${seen.pageHeight}`);
      assert.ok(seen.sideAfterScroll.top >= 0 && seen.sideAfterScroll.top < 100, `after scrolling the contents are at ${seen.sideAfterScroll.top}`);
      assert.equal(seen.fold.display, 'none', 'the folded contents show on a wide screen too');
    });

    test(`at 390 px the contents of the ${c.name} entry are folded in a closed <details>`, async () => {
      const seen = await measure(work, c, 390);
      assert.equal(seen.width, 390, `the window is ${seen.width} px wide`);
      assert.equal(seen.side.display, 'none', 'the side contents show on a phone');
      assert.notEqual(seen.fold.display, 'none');
      assert.equal(seen.fold.open, false, 'the contents are not folded');
      assert.equal(seen.fold.listShown, false, 'the folded list takes room');
      assert.ok(seen.fold.links > 0, 'the folded contents do not list the attempts');
      assert.ok(seen.fold.box.height > 0 && seen.fold.box.right <= 390, JSON.stringify(seen.fold.box));
    });

    test(`the "#" link of a ${c.name} heading appears on focus`, async () => {
      const seen = await measure(work, c, 1280);
      assert.ok(seen.anchor, 'no heading anchor in #problem');
      assert.ok(seen.anchor.label && seen.anchor.label !== '#', 'the anchor has no accessible name');
      assert.equal(seen.anchor.before, '0', 'the anchor shows before focus');
      assert.equal(seen.anchor.focused, true);
      assert.equal(seen.anchor.after, '1', 'the anchor stays hidden with focus');
    });
  }
}
