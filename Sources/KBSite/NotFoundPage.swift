import KBCore
import KBSearch
import KBScenarios
/// What 404.html carries so it works at any depth. Hosts serve its content at the missing
/// address (`/a/b/c/missing`), where the page's relative links would point into folders that do
/// not exist. So the stylesheet is inlined, and, when no base URL is known, a small script finds
/// the site root and points the page's relative links at it. Without JavaScript the links stay
/// relative to the site root: right for a missing page at the top level and for the file opened
/// from disk; `--base-url` (a `<base>` element) makes them right everywhere.
enum NotFoundPage {
    /// The theme's stylesheet as a `<style>` element. `</` is written `<\/` (the same in CSS,
    /// where `\/` is `/`), so no text of the stylesheet can close the element.
    static func styleElement(_ stylesheet: String) -> String {
        let safe = stylesheet.contains("</") ? stylesheet.replacingOccurrences(of: "</", with: "<\\/") : stylesheet
        return "<style>\n" + safe + (safe.hasSuffix("\n") ? "" : "\n") + "</style>"
    }

    /// Finds the site root: from the missing page's folder up to `/`, the first folder whose
    /// `assets/style.css` is served as CSS (a host that answers every path with HTML does not
    /// count); then every relative `href` of the page is made to start there. Only over http(s):
    /// opened from disk, 404.html sits at the root and its links work as they are.
    static let rootFinder = """
    <script>
    (function () {
      "use strict";
      if (!/^https?:$/.test(location.protocol) || !window.fetch) return;
      var folders = location.pathname.split("/").slice(0, -1), candidates = [];
      for (var n = folders.length; n >= 1; n--) candidates.push(folders.slice(0, n).join("/") + "/");
      function rebase(root) {
        if (document.readyState === "loading") {
          document.addEventListener("DOMContentLoaded", function () { rebase(root); });
          return;
        }
        var links = document.querySelectorAll("a[href], link[href]");
        for (var i = 0; i < links.length; i++) {
          var href = links[i].getAttribute("href");
          if (!/^([a-z][a-z0-9+.-]*:|\\/|#)/i.test(href)) links[i].setAttribute("href", root + href);
        }
        document.documentElement.setAttribute("data-site-root", root);
      }
      function probe(i) {
        if (i >= candidates.length) return;
        fetch(candidates[i] + "\(SitePaths.stylesheet)", { cache: "no-store" }).then(function (response) {
          var type = response.headers.get("content-type") || "";
          if (response.ok && type.indexOf("css") >= 0) rebase(candidates[i]); else probe(i + 1);
        }, function () {});
      }
      probe(0);
    })();
    </script>
    """
}
