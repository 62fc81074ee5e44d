// The Chromium the browser tests drive (Debian's `chromium`, or another name on the PATH), or
// null when there is none (the tests then skip, saying why).
import { execFileSync } from 'node:child_process';

export const chromium = ['chromium', 'chromium-browser', 'google-chrome'].map((name) => {
  try { return execFileSync('sh', ['-c', `command -v ${name}`], { encoding: 'utf8' }).trim(); } catch { return null; }
}).find(Boolean);
