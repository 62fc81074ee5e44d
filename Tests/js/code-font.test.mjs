// Code is drawn in a monospace face in every language: headless Chromium opens copies of built
// entry pages (zh-Hans, ko, ja, and one marked en) with a probe script added to the copy, which
// writes the computed font-family of each `pre code` into the page for --dump-dom. The language
// font rules must not outrank the code rule, and CJK code must get its own language's mono face.
// Skips, saying why, when Chromium or the built site (.build/test-site) is missing.
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

const flags = ['--headless=new', '--no-sandbox', '--disable-gpu', '--virtual-time-budget=4000'];
const probe = `<script>
for (const [i, code] of [...document.querySelectorAll('pre code')].entries()) {
  const out = document.createElement('output');
  out.className = 'font-probe';
  out.dataset.index = i;
  out.textContent = getComputedStyle(code).fontFamily;
  document.body.append(out);
}
</script>`;

/** Each page: the built entry, the language its <html> gets in the copy, the CJK mono face expected. */
const cases = [
  { name: 'zh-Hans', page: 'gb2312-gbk-gb18030-iconv.html', lang: null, face: 'Noto Sans Mono CJK SC' },
  { name: 'ko', page: 'euc-kr-cp949-iconv.html', lang: null, face: 'Noto Sans Mono CJK KR' },
  { name: 'ja', page: 'wave-dash-shift-jis-cp932.html', lang: null, face: 'Noto Sans Mono CJK JP' },
  { name: 'en', page: 'csv-utf8-bom-first-column.html', lang: 'en', face: 'Noto Sans Mono CJK SC' },
];

if (missing.length) {
  test('code is drawn in a monospace face', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const work = mkdtempSync(path.join(tmpdir(), 'kb-code-font-'));
  cpSync(path.join(site, 'assets'), path.join(work, 'assets'), { recursive: true });
  test.after(() => rmSync(work, { recursive: true, force: true }));

  for (const c of cases) {
    test(`pre code is monospace on a ${c.name} page`, async () => {
      let html = readFileSync(path.join(site, 'entries', c.page), 'utf8');
      if (c.lang) html = html.replace(/<html lang="[^"]*"/, `<html lang="${c.lang}"`);
      // The copy sits one folder down, as the built page does, so its relative links still work.
      const copy = path.join(work, 'entries', `${c.name}.html`);
      cpSync(path.join(site, 'entries', c.page), copy);
      writeFileSync(copy, html.replace('</body>', `${probe}</body>`));
      const { stdout } = await run(chromium, [...flags, '--dump-dom', pathToFileURL(copy).href], { maxBuffer: 32 << 20, timeout: 60000 });
      const families = [...stdout.matchAll(/<output class="font-probe" data-index="\d+">([^<]*)<\/output>/g)].map((m) => m[1].replace(/&quot;/g, '"'));
      assert.ok(families.length > 0, `${c.page} has no pre code block`);
      for (const family of families) {
        const first = family.split(',')[0].trim().replace(/"/g, '');
        assert.equal(first, 'ui-monospace', `pre code starts with ${first}, not the mono stack: ${family}`);
        assert.ok(family.includes(c.face), `the ${c.name} page's code lacks ${c.face}: ${family}`);
        assert.ok(!family.includes('system-ui'), `the language's text stack reached the code: ${family}`);
      }
    });
  }
}
