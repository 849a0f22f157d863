// The site's search (Sphinx's searchtools.js, on search.html), adjusted:
// - a result's snippet quotes what a reader reads there (never folded code);
// - a query naming a table ("Table 12-5") lists only the pages that name that table (the index keeps words, not the
//   numbers of a table's name);
// - a section whose heading holds the whole query ("roll-under" in "2d6 roll-under (Tri-Stat)") ranks above pages that
//   only share one of its words, and opens at that section (Sphinx drops "under" as a common word, and asks that a
//   query be half a heading's length before it matches the heading);
// - a page listed at the place that states the query is not listed again for a word in its text.
// Loaded on every page; does something only where search runs.
document.addEventListener('DOMContentLoaded', () => {
  if (typeof Search === 'undefined') return;
  Search.htmlToText = (html, anchor) => {
    const doc = new DOMParser().parseFromString(html, 'text/html');
    doc.querySelectorAll('.no-search, details.hide, .headerlink, script, style').forEach((el) => el.remove());
    const main = doc.querySelector('[role="main"]');
    if (!main) return '';
    let at = null;
    try { at = anchor ? main.querySelector(anchor) : null; } catch { at = null; }
    return (at && at.textContent.trim() ? at : main).textContent;
  };
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  // [docname, title, anchor, descr, score, filename, kind], best last (as Sphinx orders them)
  const order = (a, b) => (a[4] !== b[4] ? a[4] - b[4] : a[1].toLowerCase() < b[1].toLowerCase() ? 1 : a[1].toLowerCase() > b[1].toLowerCase() ? -1 : 0);
  const perform = Search._performSearch;
  Search._performSearch = (query, ...rest) => {
    let results = perform(query, ...rest);
    const index = Search._index;
    const q = query.toLowerCase().trim();
    if (q.length >= 3) {
      const whole = new RegExp(`(^|[^\\w-])${escape(q)}($|[^\\w-])`);
      for (const [title, found] of Object.entries(index.alltitles || {})) {
        const t = title.toLowerCase().trim();
        if (!whole.test(t) || q.length >= t.length / 2) continue; // a short heading Sphinx has matched already
        for (const [file, id] of found) {
          const page = index.titles[file];
          const r = [index.docnames[file], page !== title ? `${page} > ${title}` : title, id ? `#${id}` : '', null,
                     20 + Math.round((30 * q.length) / t.length), index.filenames[file], 'title'];
          if (typeof Scorer !== 'undefined' && Scorer.score) r[4] = Scorer.score(r);
          results.push(r);
        }
      }
    }
    const placed = new Set(results.filter((r) => r[6] === 'index' || (r[6] === 'title' && r[2])).map((r) => r[0]));
    results = results.filter((r) => r[6] !== 'text' || !placed.has(r[0]));
    const named = [...query.matchAll(/\btables?\s+((?:\d+|a)-\d+)/gi)].map((m) => m[1].toUpperCase());
    if (named.length) {
      const naming = index.besm_tables || {};
      results = results.filter((r) => r[6] !== 'text' || named.every((t) => (naming[t] || []).includes(index.docnames.indexOf(r[0]))));
    }
    return results.sort(order);
  };
});
