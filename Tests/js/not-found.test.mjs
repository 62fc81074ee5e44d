// 404.html at any depth: a static host (static-server.mjs) answers missing paths with 404.html's
// content and status 404. At a deep missing path of a site built without --base-url the page
// must still be styled (the stylesheet is inlined) and its home link must lead to the site's
// index.html (the root finder's work), also when the site lives under a sub-folder of the host.
// Skips, saying why, when Chromium or the built site (.build/test-site) is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';
import { Browser } from './cdp.mjs';
import { serve } from './static-server.mjs';

const missing = [
  ...browserTestsMissing('404.html'),
].filter(Boolean);

/** Where the site sits on the host, and the missing addresses asked for. */
const cases = [
  { name: 'site at the host root, missing page at the top', folder: '', missing: 'missing.html' },
  { name: 'site at the host root, missing page four folders down', folder: '', missing: 'a/b/c/missing' },
  { name: 'site at the host root, missing page in a folder the site has', folder: '', missing: 'tags/appearance/page-99.html' },
  { name: 'site under /kb/, missing page four folders down', folder: 'kb/', missing: 'kb/a/b/c/missing' },
];

if (missing.length) {
  test('404.html works at any depth', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const host = mkdtempSync(path.join(tmpdir(), 'kb-404-'));
  cpSync(site, host, { recursive: true });
  cpSync(site, path.join(host, 'kb'), { recursive: true });
  let server, browser;
  test.before(async () => {
    server = await serve(host);
    browser = await Browser.launch();
  });
  test.after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(host, { recursive: true, force: true });
  });

  test('the built 404.html inlines the stylesheet and links none', () => {
    const html = readFileSync(path.join(site, '404.html'), 'utf8');
    assert.match(html, /<style>[^]*--bg:[^]*<\/style>/);
    assert.ok(!html.includes('rel="stylesheet"'), 'the page still links a stylesheet, which breaks at depth');
  });

  for (const c of cases) {
    test(`404 is styled and leads home: ${c.name}`, async () => {
      const page = await browser.newPage({ width: 1024, height: 768 });
      try {
        const status = fetch(server.url + c.missing).then((response) => response.status);
        assert.equal(await status, 404);
        await page.goto(server.url + c.missing);
        assert.equal(await page.eval('document.title'), 'Page not found · TroubleshootKB');
        // Styled: the theme's font stack, background and measure, not the browser's defaults.
        const style = await page.eval(`(() => { const body = getComputedStyle(document.body), main = getComputedStyle(document.querySelector('main'));
          return { font: body.fontFamily, margin: body.margin, maxWidth: main.maxWidth, line: body.lineHeight, fontSize: body.fontSize }; })()`);
        assert.ok(style.font.startsWith('system-ui'), `body font is ${style.font}`);
        assert.equal(style.margin, '0px');
        assert.equal(style.maxWidth, '736px');
        // The home link, once the root finder ran, is the site's index.html.
        const root = server.url + c.folder;
        await page.until(`document.documentElement.getAttribute('data-site-root') !== null`);
        const home = await page.eval(`document.querySelector('.site-name').href`);
        assert.equal(home, root + 'index.html');
        const inText = await page.eval(`[...document.querySelectorAll('main a')].map((a) => a.href)`);
        assert.deepEqual(inText, [root + 'index.html', root + 'symptoms/index.html']);
        assert.equal(await page.eval(`document.querySelector('.skip-link').getAttribute('href')`), '#main');
        // The header search submits to the home page, and its "/" key works (assets/app.js,
        // loaded from the root when the page is below it).
        assert.equal(await page.eval(`document.querySelector('.header-search').action`), root + 'index.html');
        await page.until(`[...document.scripts].some((s) => s.src === ${JSON.stringify(root + 'assets/app.js')})`);
        await page.until(`(document.dispatchEvent(new KeyboardEvent('keydown', { key: '/', bubbles: true })),
          document.activeElement && document.activeElement.id === 'header-search')`);
        // And it is the site's home page that opens.
        await page.goto(home);
        assert.equal(await page.eval('document.body.className'), 'page-home');
      } finally {
        await page.close();
      }
    });
  }
}
