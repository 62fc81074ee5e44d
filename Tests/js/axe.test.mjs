// axe-core finds no WCAG 2 A/AA (2.1 and 2.2 AA included) violation on the site's kinds of page,
// in the light and the dark colour scheme: home, an entry page per language (zh-Hans, ko, ja, en),
// the symptoms page, a tag page, 404 (served for a missing deep path), and home with a search
// typed in and its results shown. The pages are served over HTTP (static-server.mjs) and driven
// over the DevTools protocol (cdp.mjs); axe.min.js is injected into each.
//
// axe.min.js comes from PyPI's axe-playwright-python wheel, which `scripts/install-deps.sh test`
// (make test's deps-test) unpacks into .build/axe/ (or KB_AXE_JS names the file). Without it this
// test FAILS, saying so: an accessibility check that cannot run must not pass. Skips, saying why,
// only when Chromium or the built site (.build/test-site) is missing, as the other browser tests.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';
import { Browser } from './cdp.mjs';
import { serve } from './static-server.mjs';

const axePath = process.env.KB_AXE_JS || path.join(repo, '.build/axe/axe.min.js');
const missing = [
  ...browserTestsMissing(),
].filter(Boolean);

const tags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
const schemes = ['light', 'dark'];

/** The first entry page of the built site written in `lang` (its `<html lang>`), or null. */
function entryIn(lang) {
  for (const name of readdirSync(path.join(site, 'entries')).sort()) {
    const head = readFileSync(path.join(site, 'entries', name), 'utf8').slice(0, 200);
    if (head.includes(`<html lang="${lang}"`)) return `entries/${name}`;
  }
  return null;
}

/** Each page: its name, its address under the served copy, and what to do once it loaded. */
function pages() {
  const list = [{ name: 'home', path: 'index.html' }];
  for (const lang of ['zh-Hans', 'ko', 'ja']) {
    const page = entryIn(lang);
    assert.ok(page, `the built site has no ${lang} entry page`);
    list.push({ name: `entry (${lang})`, path: page });
  }
  // This knowledge base has no entry written in English yet: an English one is a copy of the
  // first entry marked en (the English fonts and words the page gets), beside the others.
  list.push({ name: 'entry (en)', path: entryIn('en') ?? 'entries/axe-english-copy.html' });
  const tag = readdirSync(path.join(site, 'tags')).sort()[0];
  list.push({ name: 'symptoms', path: 'symptoms/index.html' });
  list.push({ name: `tag (${tag})`, path: `tags/${tag}/index.html` });
  list.push({ name: '404 at a missing deep path', path: 'a/b/c/missing', status: 404 });
  list.push({ name: 'home with search results', path: 'index.html', search: '導航欄 shadow' });
  return list;
}

/** The violations axe finds in the open page, as `rule (impact): selector — summary` lines. */
async function violations(page, axeSource) {
  await page.eval(`${axeSource}\n;void 0`);
  const found = await page.eval(`axe.run(document, { runOnly: { type: 'tag', values: ${JSON.stringify(tags)} }, resultTypes: ['violations'] })
    .then((r) => r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help,
      nodes: v.nodes.map((n) => n.target.join(' ') + ' — ' + (n.failureSummary || '').replace(/\\s+/g, ' ').slice(0, 200)) })))`);
  return found.flatMap((v) => v.nodes.map((node) => `${v.id} (${v.impact}, ${v.help}): ${node}`));
}

if (missing.length) {
  test('axe-core finds no WCAG A/AA violation', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else if (!existsSync(axePath)) {
  test('axe-core finds no WCAG A/AA violation', () => {
    assert.fail(`axe-core is missing: no ${axePath}. Run scripts/install-deps.sh test (it unpacks axe.min.js from `
      + 'PyPI\'s axe-playwright-python wheel into .build/axe/), or set KB_AXE_JS to an axe.min.js. '
      + 'This test fails rather than skips: an accessibility check that did not run must not pass.');
  });
} else {
  const axeSource = readFileSync(axePath, 'utf8');
  const work = mkdtempSync(path.join(tmpdir(), 'kb-axe-'));
  cpSync(site, work, { recursive: true });
  if (!entryIn('en')) {
    const source = entryIn('zh-Hans') ?? entryIn('ja');
    const html = readFileSync(path.join(site, source), 'utf8');
    writeFileSync(path.join(work, 'entries/axe-english-copy.html'), html.replace(/<html lang="[^"]*"/, '<html lang="en"'));
  }
  let server, browser;
  test.before(async () => {
    server = await serve(work);
    browser = await Browser.launch();
  });
  test.after(async () => {
    await browser?.close();
    await server?.close();
    rmSync(work, { recursive: true, force: true });
  });

  // The control: a page with faults axe must report, so a run that checks nothing cannot pass.
  writeFileSync(path.join(work, 'axe-control.html'), '<!DOCTYPE html><html><head><title>control</title></head><body>'
    + '<main><img src="missing.png"><p style="color:#bbb;background:#fff">faint text</p></main></body></html>');
  test('axe: the control page\'s faults are reported (axe ran and checks contrast)', async () => {
    const page = await browser.newPage();
    try {
      await page.goto(server.url + 'axe-control.html');
      const rules = new Set((await violations(page, axeSource)).map((line) => line.split(' ')[0]));
      for (const rule of ['html-has-lang', 'image-alt', 'color-contrast']) assert.ok(rules.has(rule), `axe did not report ${rule}: ${[...rules]}`);
    } finally {
      await page.close();
    }
  });

  for (const scheme of schemes) {
    for (const c of pages()) {
      test(`axe: no WCAG 2.2 A/AA violation on ${c.name}, ${scheme} scheme`, async () => {
        const page = await browser.newPage({ width: 1280, height: 900, scheme });
        try {
          await page.goto(server.url + c.path);
          assert.equal(await page.eval("matchMedia('(prefers-color-scheme: dark)').matches"), scheme === 'dark');
          if (c.status === 404) {
            assert.equal(await page.eval('document.title'), 'Page not found · TroubleshootKB');
          }
          if (c.search) {
            await page.until('window.kbSearchReady !== false && document.getElementById("search")');
            await page.eval(`(() => { const input = document.getElementById('search'); input.focus();
              input.value = ${JSON.stringify(c.search)}; input.dispatchEvent(new InputEvent('input', { bubbles: true })); })()`);
            await page.until('document.querySelectorAll("#results a.result-title").length > 0');
          }
          const found = await violations(page, axeSource);
          assert.deepEqual(found, [], `axe found ${found.length} violation(s) on ${c.path} (${scheme}):\n${found.join('\n')}`);
        } finally {
          await page.close();
        }
      });
    }
  }
}
