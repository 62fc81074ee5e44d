// A tiny static host for the browser tests: serves a built site's files over HTTP on loopback
// and answers a missing path, at any depth, with 404.html's content and status 404, as static
// hosts (GitHub Pages, Netlify, …) do.
import { createServer } from 'node:http';
import { readFile, stat } from 'node:fs/promises';
import path from 'node:path';

const types = {
  '.html': 'text/html; charset=utf-8', '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml', '.xml': 'application/xml; charset=utf-8', '.json': 'application/json',
};

/** Serves `root`; resolves with `{ url, close() }` (`url` ends in `/`). */
export async function serve(root) {
  const server = createServer(async (request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://localhost').pathname);
    let file = path.join(root, path.normalize(pathname));
    if (!file.startsWith(root)) { response.writeHead(403).end(); return; }
    try {
      if ((await stat(file)).isDirectory()) file = path.join(file, 'index.html');
      const body = await readFile(file);
      response.writeHead(200, { 'content-type': types[path.extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      const body = await readFile(path.join(root, '404.html'));
      response.writeHead(404, { 'content-type': types['.html'] }).end(body);
    }
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${server.address().port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}
