// The site's layout in headless Chromium, driven over the DevTools protocol (cdp.mjs):
// - reflow (WCAG 1.4.10): at 320 CSS px no page scrolls sideways, and nothing sticks out of the
//   viewport but inside a box that scrolls itself (code blocks, tables): every entry page, home,
//   symptoms, a tag page and 404;
// - print: the longest entry printed to A4 (Page.printToPDF) fills its pages (no more pages than
//   its printed height needs, plus one) and stays under a sane bound;
// - screenshots of an entry page at 1280 and 390 px, light and dark, saved to .build/screenshots/
//   for review (whole page and first screen).
// Skips, saying why, when Chromium or the built site (.build/test-site) is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';
import { Browser, pdfPageCount } from './cdp.mjs';
import { serve } from './static-server.mjs';

const shots = path.join(repo, '.build/screenshots');
const missing = [
  ...browserTestsMissing(),
].filter(Boolean);

/** Elements that reach past the viewport's right edge, unless a box that scrolls sideways holds them. */
const overflowProbe = `(() => {
  const width = document.documentElement.clientWidth, out = [];
  const scrolls = (el) => { for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
    const x = getComputedStyle(e).overflowX; if (x === 'auto' || x === 'scroll' || x === 'hidden') return true; } return false; };
  for (const el of document.body.querySelectorAll('*')) {
    const box = el.getBoundingClientRect();
    if (box.width === 0 || box.right <= width + 0.5 || scrolls(el)) continue;
    if (getComputedStyle(el).position === 'absolute' && box.left < 0) continue; // the skip link, off screen
    out.push(el.tagName.toLowerCase() + (el.className ? '.' + String(el.className).split(' ')[0] : '') + ' to ' + Math.round(box.right)
      + 'px: ' + (el.textContent || '').trim().slice(0, 50));
  }
  return { scrollWidth: document.documentElement.scrollWidth, width, out: out.slice(0, 8) };
})()`;

if (missing.length) {
  test('layout: reflow, print, screenshots', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  let server, browser;
  test.before(async () => {
    server = await serve(site);
    browser = await Browser.launch();
  });
  test.after(async () => {
    await browser?.close();
    await server?.close();
  });

  const entries = readdirSync(path.join(site, 'entries')).filter((name) => name.endsWith('.html')).sort();
  const tag = readdirSync(path.join(site, 'tags')).sort()[0];
  const pages = [...entries.map((name) => `entries/${name}`), 'index.html', 'symptoms/index.html', `tags/${tag}/index.html`, 'a/b/missing'];

  for (const scheme of ['light', 'dark']) {
    test(`reflow at 320 px: no page scrolls sideways (${scheme})`, async () => {
      const page = await browser.newPage({ width: 320, height: 640, scheme });
      try {
        const problems = [];
        for (const address of pages) {
          await page.goto(server.url + address);
          const seen = await page.eval(overflowProbe);
          if (seen.scrollWidth > seen.width || seen.out.length) {
            problems.push(`${address}: page ${seen.scrollWidth}px wide in ${seen.width}px; ${seen.out.join('; ')}`);
          }
        }
        assert.deepEqual(problems, []);
      } finally {
        await page.close();
      }
    });
  }

  // Layout shifts of the page since it loaded (the Layout Instability API), with the nodes moved.
  const shiftProbe = `new Promise((resolve) => {
    const shifts = [];
    new PerformanceObserver((list) => {
      for (const e of list.getEntries()) if (!e.hadRecentInput) shifts.push({ value: e.value,
        nodes: e.sources.map((s) => s.node ? s.node.nodeName + (s.node.className ? '.' + s.node.className : '') : '?') });
    }).observe({ type: 'layout-shift', buffered: true });
    setTimeout(() => resolve(shifts), 300);
  })`;

  test('home opened with ?q= (the header search): the page does not move when the results arrive', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ width, height: width === 390 ? 844 : 900 });
      try {
        await page.goto(server.url + 'index.html?q=' + encodeURIComponent('大标题看不见'));
        await page.until(`document.querySelectorAll('#results a.result-title').length > 0`);
        const shifts = await page.eval(shiftProbe);
        const total = shifts.reduce((sum, s) => sum + s.value, 0);
        assert.ok(total < 0.01, `at ${width} px the page shifted by ${total.toFixed(3)}: ${JSON.stringify(shifts)}`);
      } finally {
        await page.close();
      }
    }
  });

  test('tables on a phone: rule ids never break, and the model page\'s table fits the screen', async () => {
    const page = await browser.newPage({ width: 360, height: 800 });
    try {
      const withChecks = [];
      for (const name of entries) {
        await page.goto(server.url + `entries/${name}`);
        const seen = await page.eval(`(() => {
          const rules = [...document.querySelectorAll('.check-table a.rule')];
          const line = rules.length ? parseFloat(getComputedStyle(rules[0]).lineHeight) : 0;
          return { rules: rules.length, broken: rules.filter((a) => a.getClientRects().length > 1 || a.getBoundingClientRect().height > line * 1.5).map((a) => a.textContent),
                   cells: [...document.querySelectorAll('.check-table td')].map((td) => Math.round(td.getBoundingClientRect().width)) };
        })()`);
        if (!seen.rules) continue;
        withChecks.push(name);
        assert.deepEqual(seen.broken, [], `${name}: rule ids broken over lines`);
        // Stacked: each cell takes the row's width rather than a squeezed column.
        assert.ok(Math.min(...seen.cells) > 250, `${name}: check-table cells as narrow as ${Math.min(...seen.cells)} px`);
      }
      if (existsSync(path.join(site, 'model/navigation-bar/index.html'))) {
        assert.ok(withChecks.length > 0, 'no entry page shows a check table (is the check report missing?)');
        await page.goto(server.url + 'model/navigation-bar/index.html');
        const table = await page.eval(`(() => { const t = document.querySelector('.rule-table');
          return { width: t.scrollWidth, box: t.clientWidth, ids: [...t.querySelectorAll('tbody th')].filter((th) => th.getClientRects().length && th.getBoundingClientRect().height > 40).map((th) => th.textContent) }; })()`);
        assert.ok(table.width <= table.box + 1, `the rule table is ${table.width} px wide in a ${table.box} px box`);
        assert.deepEqual(table.ids, [], 'rule ids broken over lines');
      }
    } finally {
      await page.close();
    }
  });

  test('an attempt\'s heading: the hidden "#" link takes only its own width', async () => {
    for (const width of [390, 1280]) {
      const page = await browser.newPage({ width, height: 900 });
      try {
        const wide = [];
        for (const name of entries) {
          await page.goto(server.url + `entries/${name}`);
          wide.push(...await page.eval(`[...document.querySelectorAll('.attempt > h3 > .heading-anchor')]
            .filter((a) => a.getBoundingClientRect().width > 40).map((a) => location.pathname.split('/').pop() + '#' + a.parentElement.parentElement.id + ' ' + Math.round(a.getBoundingClientRect().width) + 'px')`));
        }
        assert.deepEqual(wide, [], `at ${width} px`);
      } finally {
        await page.close();
      }
    }
  });

  test('print: the longest entry fills its A4 pages', async () => {
    const longest = entries.reduce((a, b) => (statSync(path.join(site, 'entries', a)).size >= statSync(path.join(site, 'entries', b)).size ? a : b));
    const page = await browser.newPage({ width: 1280, height: 900 });
    try {
      await page.goto(server.url + `entries/${longest}`);
      const pdf = await page.pdf();
      const count = pdfPageCount(pdf);
      // The printed height: print media at the page box's width (A4 less @page's 1.5 cm margins).
      const cm = 96 / 2.54;
      await page.viewport(Math.round((21 - 3) * cm), Math.round((29.7 - 3) * cm));
      await page.send('Emulation.setEmulatedMedia', { media: 'print' });
      const height = await page.eval('document.documentElement.scrollHeight');
      const needed = Math.ceil(height / ((29.7 - 3) * cm));
      console.log(`# print: ${longest}: ${count} A4 pages for ${needed} pages of printed height (${height}px)`);
      assert.ok(count >= 1, 'the PDF has no pages');
      assert.ok(count <= needed + 1, `${count} pages for ${needed} pages of content: pages are left half empty`);
      assert.ok(count <= 20, `${count} pages: printing the longest entry should take well under 20 (21 with cards kept whole)`);
    } finally {
      await page.close();
    }
  });

  test('screenshots of an entry page at 1280 and 390 px, light and dark', async () => {
    mkdirSync(shots, { recursive: true });
    // The entry with the longest API names in its attempt headings.
    const entry = entries.includes('scoped-navigation-bar-appearance.html') ? 'scoped-navigation-bar-appearance.html' : entries[0];
    for (const width of [1280, 390]) {
      for (const scheme of ['light', 'dark']) {
        const page = await browser.newPage({ width, height: width === 390 ? 844 : 900, scheme });
        try {
          await page.goto(server.url + `entries/${entry}`);
          const top = await page.screenshot({ full: false });
          const full = await page.screenshot({ full: true });
          assert.equal(top.subarray(1, 4).toString(), 'PNG');
          writeFileSync(path.join(shots, `entry-${width}-${scheme}-top.png`), top);
          writeFileSync(path.join(shots, `entry-${width}-${scheme}-full.png`), full);
        } finally {
          await page.close();
        }
      }
    }
  });
}
