// Code blocks on a built entry page, in headless Chromium driven over the DevTools protocol (on a
// pipe: no network, no WebSocket): the Swift code is coloured at build time (an `hl-keyword` span
// holding `let`, `func` or `var`), the block's head shows the language ("Swift"), the copy button
// is a real <button> named in the page's language, and a real mouse click on it puts the code on
// the clipboard (read back with the clipboard permission granted) and the button says "copied";
// the button moves nothing (the head is as tall without it); a long line shows a scroll cue.
// The page is opened from file://, as a reader who opened the built folder would.
// Skips, saying why, when Chromium or the built site (.build/test-site) is missing.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { spawn } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { browserTestsMissing, chromium, repo, site } from './chromium.mjs';

const missing = [
  ...browserTestsMissing(),
].filter(Boolean);

/** A Chromium with the DevTools protocol on file descriptors 3 (commands) and 4 (replies). */
class Browser {
  constructor() {
    this.profile = mkdtempSync(path.join(tmpdir(), 'kb-code-blocks-'));
    this.process = spawn(chromium, [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe',
      `--user-data-dir=${this.profile}`, '--window-size=390,844', 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    this.next = 1;
    this.waiting = new Map();
    this.events = [];
    let buffer = '';
    this.process.stdio[4].on('data', (chunk) => {
      buffer += chunk.toString('utf8');
      let end;
      while ((end = buffer.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffer.slice(0, end));
        buffer = buffer.slice(end + 1);
        if (message.id && this.waiting.has(message.id)) {
          const { resolve, reject } = this.waiting.get(message.id);
          this.waiting.delete(message.id);
          if (message.error) reject(new Error(JSON.stringify(message.error))); else resolve(message.result);
        } else if (message.method) {
          this.events.push(message);
        }
      }
    });
  }

  send(method, params = {}, sessionId) {
    const id = this.next++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.waiting.set(id, { resolve, reject });
      this.process.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  async close() {
    const exited = new Promise((done) => {
      if (this.process.exitCode !== null) done(); else this.process.once('exit', done);
    });
    try { await this.send('Browser.close'); } catch { /* already gone */ }
    const timer = setTimeout(() => this.process.kill(), 5000);
    await exited;
    clearTimeout(timer);
    rmSync(this.profile, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
  }
}

/** Opens `url` in a new page; returns a function that evaluates an expression there. */
async function open(browser, url) {
  const { targetId } = await browser.send('Target.createTarget', { url: 'about:blank' });
  const { sessionId } = await browser.send('Target.attachToTarget', { targetId, flatten: true });
  const page = (method, params) => browser.send(method, params, sessionId);
  await page('Page.enable');
  await page('Emulation.setFocusEmulationEnabled', { enabled: true });
  // A phone's width (390 px), where long lines overflow.
  await page('Emulation.setDeviceMetricsOverride', { width: 390, height: 844, deviceScaleFactor: 1, mobile: true });
  await page('Page.navigate', { url });
  const evaluate = async (expression) => {
    const { result, exceptionDetails } = await page('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`${expression}: ${JSON.stringify(exceptionDetails)}`);
    return result.value;
  };
  for (let i = 0; i < 100; i++) {
    if (await evaluate('document.readyState === "complete" && !!document.querySelector(".code-copy")')) break;
    await new Promise((done) => setTimeout(done, 100));
  }
  return { page, evaluate };
}

const cases = [
  { name: 'zh-Hans', page: 'cmark-cjk-softbreak-space.html', copy: '复制', copied: '已复制' },
  { name: 'ja', page: 'cmark-cjk-emphasis-punctuation.html', copy: 'コピー', copied: 'コピーしました' },
];

if (missing.length) {
  test('code blocks: colours, label, copy button', { skip: `skipped: ${missing.join('; ')}` }, () => {});
} else {
  const browser = new Browser();
  test.after(() => browser.close());
  await browser.send('Browser.grantPermissions', { permissions: ['clipboardReadWrite', 'clipboardSanitizedWrite'] });

  test('the built page is coloured without JavaScript: an hl-keyword span and the "Swift" label', () => {
    const html = readFileSync(path.join(site, 'entries', cases[0].page), 'utf8');
    assert.match(html, /<span class="hl-keyword">(let|func|var)<\/span>/);
    assert.match(html, /<div class="code-head"><span class="code-lang">Swift<\/span><\/div><pre tabindex="0"><code class="language-swift">/);
    assert.ok(!/<button[^>]*code-copy/.test(html), 'the copy button is added by assets/app.js, not written in the page');
  });

  for (const c of cases) {
    test(`${c.name}: a Swift or shell block has coloured tokens, a label and a copy button that copies`, async () => {
      const { page, evaluate } = await open(browser, pathToFileURL(path.join(site, 'entries', c.page)).href);
      const block = await evaluate(`(() => {
        const block = [...document.querySelectorAll('.code-block')].find((b) => b.querySelector('.hl-keyword'));
        if (!block) return null;
        block.id = 'probe-block';
        block.scrollIntoView({ block: 'center', behavior: 'instant' });
        const button = block.querySelector('button.code-copy');
        const box = button ? button.getBoundingClientRect() : null;
        // No layout shift: the head is as tall with the button as without it.
        const head = block.querySelector('.code-head');
        const withButton = head.getBoundingClientRect().height;
        if (button) button.remove();
        const withoutButton = head.getBoundingClientRect().height;
        if (button) head.insertBefore(button, head.querySelector('[role=status]'));
        return {
          label: block.querySelector('.code-lang') && block.querySelector('.code-lang').textContent,
          keywords: [...block.querySelectorAll('.hl-keyword')].map((k) => k.textContent),
          code: block.querySelector('pre > code').textContent,
          button: button && { name: button.textContent, type: button.type, x: box.x + box.width / 2, y: box.y + box.height / 2 },
          heads: [withButton, withoutButton],
          monospace: getComputedStyle(block.querySelector('pre code')).fontFamily.startsWith('ui-monospace'),
        };
      })()`);
      assert.ok(block, `${c.page} has no coloured code block`);
      assert.ok(['Swift', 'Shell'].includes(block.label), `label: ${block.label}`);
      assert.ok(block.keywords.length > 0);
      assert.equal(block.monospace, true, 'code is not in the monospace stack');
      assert.equal(block.heads[0], block.heads[1], 'adding the copy button changed the head\'s height');
      assert.ok(block.button, 'no copy button');
      assert.equal(block.button.type, 'button');
      assert.equal(block.button.name, c.copy, 'the button is not named in the page language');

      // A real click (user activation), then the clipboard read back.
      for (const type of ['mousePressed', 'mouseReleased']) {
        await page('Input.dispatchMouseEvent', { type, x: block.button.x, y: block.button.y, button: 'left', clickCount: 1 });
      }
      let state = null;
      for (let i = 0; i < 50 && state !== 'copied'; i++) {
        await new Promise((done) => setTimeout(done, 100));
        state = await evaluate(`document.querySelector('#probe-block .code-copy').getAttribute('data-state')`);
      }
      assert.equal(state, 'copied', 'the button did not report success');
      assert.equal(await evaluate(`document.querySelector('#probe-block .code-copy').textContent`), c.copied);
      assert.equal(await evaluate(`document.querySelector('#probe-block [role=status]').textContent`), c.copied);
      const clipboard = await evaluate('navigator.clipboard.readText()');
      assert.equal(clipboard, block.code, 'the clipboard does not hold the code');
    });
  }

  test('a block wider than a 390 px screen shows a scroll cue on its right edge', async () => {
    const { evaluate } = await open(browser, pathToFileURL(path.join(site, 'entries', cases[0].page)).href);
    const seen = await evaluate(`(() => {
      const pre = [...document.querySelectorAll('.code-block > pre')].find((p) => p.scrollWidth > p.clientWidth);
      if (!pre) return null;
      const style = getComputedStyle(pre);
      return { width: window.innerWidth, attachment: style.backgroundAttachment, image: style.backgroundImage };
    })()`);
    assert.ok(seen, 'no code block overflows at this width');
    assert.equal(seen.width, 390);
    assert.equal(seen.attachment, 'local, local, scroll, scroll');
    assert.match(seen.image, /linear-gradient\(to left, rgba\(/, 'no shadow gradient on the right edge');
  });
}
