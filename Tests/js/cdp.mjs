// A small client for the Chrome DevTools protocol over a pipe (--remote-debugging-pipe: Chromium
// reads commands on its fd 3 and writes replies and events on fd 4, each a JSON text ended by NUL),
// so the browser tests can set the viewport and colour scheme, run scripts, print to PDF and take
// screenshots without a WebSocket library. One browser per test file; a page per `newPage()`.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium } from './chromium.mjs';

/** A headless Chromium driven over the DevTools protocol. */
export class Browser {
  static async launch() {
    if (!chromium) throw new Error('Chromium is not installed (apt-get install chromium)');
    const profile = mkdtempSync(path.join(tmpdir(), 'kb-cdp-'));
    const child = spawn(chromium, [
      '--headless=new', '--no-sandbox', '--disable-gpu', '--remote-debugging-pipe', '--no-first-run',
      '--hide-scrollbars', '--font-render-hinting=none', `--user-data-dir=${profile}`, 'about:blank',
    ], { stdio: ['ignore', 'ignore', 'ignore', 'pipe', 'pipe'] });
    const browser = new Browser(child, profile);
    await browser.send('Target.setDiscoverTargets', { discover: false });
    return browser;
  }

  constructor(child, profile) {
    this.child = child;
    this.profile = profile;
    this.nextId = 1;
    this.pending = new Map();
    this.listeners = new Set();
    let buffered = '';
    child.stdio[4].setEncoding('utf8');
    child.stdio[4].on('data', (chunk) => {
      buffered += chunk;
      let end;
      while ((end = buffered.indexOf('\0')) >= 0) {
        const message = JSON.parse(buffered.slice(0, end));
        buffered = buffered.slice(end + 1);
        this.receive(message);
      }
    });
    child.on('exit', () => {
      for (const { reject } of this.pending.values()) reject(new Error('Chromium exited'));
      this.pending.clear();
    });
  }

  receive(message) {
    if (message.id !== undefined) {
      const waiting = this.pending.get(message.id);
      if (!waiting) return;
      this.pending.delete(message.id);
      if (message.error) waiting.reject(new Error(`${waiting.method}: ${message.error.message}`));
      else waiting.resolve(message.result);
      return;
    }
    for (const listener of [...this.listeners]) listener(message);
  }

  /** Sends a command (to a page when `sessionId` is given) and resolves with its result. */
  send(method, params = {}, sessionId) {
    const id = this.nextId++;
    const message = { id, method, params };
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, method });
      this.child.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  /** Resolves with the first event `method` of `sessionId` (within `ms`). */
  waitFor(method, sessionId, ms = 30000) {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.listeners.delete(listener); reject(new Error(`no ${method} within ${ms} ms`)); }, ms);
      const listener = (message) => {
        if (message.method !== method || message.sessionId !== sessionId) return;
        clearTimeout(timer);
        this.listeners.delete(listener);
        resolve(message.params);
      };
      this.listeners.add(listener);
    });
  }

  /** A new tab `width` CSS pixels wide, in the `scheme` colour scheme ('light' or 'dark'). */
  async newPage({ width = 1280, height = 800, scheme = 'light' } = {}) {
    const { targetId } = await this.send('Target.createTarget', { url: 'about:blank' });
    const { sessionId } = await this.send('Target.attachToTarget', { targetId, flatten: true });
    const page = new Page(this, targetId, sessionId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.viewport(width, height);
    await page.send('Emulation.setEmulatedMedia', { features: [{ name: 'prefers-color-scheme', value: scheme }] });
    return page;
  }

  async close() {
    const exited = new Promise((resolve) => this.child.once('exit', resolve));
    try { await Promise.race([this.send('Browser.close'), exited]); } catch { /* already gone */ }
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
    if (this.child.exitCode === null) this.child.kill('SIGKILL');
    rmSync(this.profile, { recursive: true, force: true });
  }
}

/** One tab: navigation, evaluation, printing and screenshots. */
export class Page {
  constructor(browser, targetId, sessionId) {
    this.browser = browser;
    this.targetId = targetId;
    this.sessionId = sessionId;
  }

  send(method, params = {}) { return this.browser.send(method, params, this.sessionId); }

  viewport(width, height) {
    return this.send('Emulation.setDeviceMetricsOverride', { width, height, deviceScaleFactor: 1, mobile: false });
  }

  /** Opens `url` and resolves once its load event fired. */
  async goto(url) {
    const loaded = this.browser.waitFor('Page.loadEventFired', this.sessionId);
    const { errorText } = await this.send('Page.navigate', { url });
    if (errorText) throw new Error(`cannot open ${url}: ${errorText}`);
    await loaded;
  }

  /** The value of a JavaScript expression in the page (awaited when it is a promise). */
  async eval(expression) {
    const { result, exceptionDetails } = await this.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
    if (exceptionDetails) throw new Error(`in the page: ${exceptionDetails.exception?.description ?? exceptionDetails.text}`);
    return result.value;
  }

  /** Waits until `expression` is truthy in the page (polled every 50 ms), or fails after `ms`. */
  async until(expression, ms = 10000) {
    const end = Date.now() + ms;
    while (Date.now() < end) {
      if (await this.eval(expression)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    throw new Error(`waited ${ms} ms for ${expression}`);
  }

  /** The page printed to an A4 PDF (print media, backgrounds off, as a reader's browser does). */
  async pdf() {
    const { data } = await this.send('Page.printToPDF', { paperWidth: 8.27, paperHeight: 11.69, printBackground: false });
    return Buffer.from(data, 'base64');
  }

  /** A PNG of the whole page (`full`) or of the first screen. */
  async screenshot({ full = true } = {}) {
    const { data } = await this.send('Page.captureScreenshot', { format: 'png', captureBeyondViewport: full });
    return Buffer.from(data, 'base64');
  }

  close() { return this.browser.send('Target.closeTarget', { targetId: this.targetId }); }
}

/** The number of pages of a PDF Chromium printed (its page tree's /Count). */
export function pdfPageCount(pdf) {
  const text = pdf.toString('latin1');
  const counts = [...text.matchAll(/\/Type\s*\/Pages\b[^>]*?\/Count\s+(\d+)|\/Count\s+(\d+)[^>]*?\/Type\s*\/Pages\b/g)]
    .map((m) => Number(m[1] ?? m[2]));
  if (counts.length) return Math.max(...counts);
  return (text.match(/\/Type\s*\/Page\b(?!s)/g) ?? []).length;
}
