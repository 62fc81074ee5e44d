// Every text in the site's search data that names an anchor points at an element of its entry's
// page with that id, and the texts a reader would want to land on (symptoms, the problem, each
// attempt's parts, the fix, side effects, lessons, notes) name one: a result opens the page where
// it matched, not at the top. Skips, saying why, when the built site (.build/test-site) is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { site } from './chromium.mjs';

const searchDir = path.join(site, 'search');

function loadData(file) {
  let result;
  vm.runInNewContext(readFileSync(file, 'utf8'), { __kbSearchData: (kind, n, data) => { result = data; } });
  return result;
}

if (!existsSync(path.join(searchDir, 'meta.js'))) {
  test('search results link to where they matched', { skip: `skipped: no built site at ${site}` }, () => {});
} else {
  test('search results link to where they matched', () => {
    const fields = loadData(path.join(searchDir, 'meta.js')).fields;
    // Fields whose texts are all anchored (title, apis and the summary in body are the page's top).
    const anchored = new Set(['symptoms', 'problem', 'attempts', 'fix', 'code']);
    const docs = readdirSync(searchDir).filter((name) => /^doc-\d+\.js$/.test(name));
    assert.ok(docs.length > 0, 'no document files');
    const problems = [];
    let checked = 0;
    for (const name of docs) {
      const doc = loadData(path.join(searchDir, name));
      const page = readFileSync(path.join(site, doc.url), 'utf8');
      for (const [field, text, label, anchor] of doc.texts) {
        if (anchor) {
          checked++;
          if (!page.includes(`id="${anchor}"`)) problems.push(`${doc.id}: #${anchor} (${fields[field]}) is not on ${doc.url}`);
        } else if (anchored.has(fields[field])) {
          problems.push(`${doc.id}: a ${fields[field]} text has no anchor: ${String(text).slice(0, 40)}`);
        }
      }
    }
    assert.deepEqual(problems, []);
    assert.ok(checked > 100, `only ${checked} anchors checked`);
  });
}
