// The site's search (Sphinx's searchtools.js, on search.html), adjusted:
// - a result's snippet quotes what a reader reads there (never folded code);
// - a query naming a table ("Table 12-5") lists only the pages that name that table (the index keeps words, not the
//   numbers of a table's name);
// - a section whose heading holds the whole query ("roll-under" in "2d6 roll-under (Tri-Stat)") ranks above pages that
//   only share one of its words, and opens at that section (Sphinx drops "under" as a common word, and asks that a
//   query be half a heading's length before it matches the heading);
// - a page listed at the place that states the query is not listed again for a word in its text;
// - spellings the sources mix find each other (tyre and tire, defence and defense, armour and armor);
// - a result opens at the section, run-in heading or table that states the query, not at the page's top, and lists
//   each place once.
// Loaded on every page; does something only where search runs.
const VARIANTS = [['tyre', 'tire'], ['defence', 'defense'], ['armour', 'armor'], ['offence', 'offense'], ['manoeuvre', 'maneuver'],
                  ['colour', 'color'], ['metre', 'meter']];

function spellings(word) {  // the spellings of a word, its own first ("tyres" -> tyres, tires)
  const low = word.toLowerCase();
  for (const pair of VARIANTS)
    for (const [i, v] of pair.entries())
      if (low.startsWith(v)) return [low, pair[1 - i] + low.slice(v.length)];
  return [low];
}

function variantQueries(query) {  // the query with every mix of the spellings of its words (the original first)
  let out = [''];
  for (const part of query.split(/(\s+)/)) out = out.flatMap((q) => spellings(part).map((w) => q + (/^\s+$/.test(part) ? part : w)));
  return [...new Set(out.map((q) => q.trim()))].slice(0, 8);
}

// Where in a page a result opens: the place that states the query, by how it states it. A heading below the page's
// title that holds the query's words first; then a run-in heading (a paragraph's bold start); then a table's first
// column; then any paragraph, list item or cell. The result opens at the nearest place with an id at or before it.
const escapeRe = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function phraseOf(query) {  // the query's words in order, each in any spelling and with any ending ("shield wall" -> "Shield walls")
  const words = query.trim().split(/\s+/).filter(Boolean);
  if (!words.length) return null;
  return new RegExp(words.map((w) => `(?:${spellings(w).map(escapeRe).join('|')})\\w*`).join('[\\s\\W]+'), 'i');
}

function landing(html, query, anchor) {
  const phrase = phraseOf(query);
  if (!phrase) return null;
  const doc = new DOMParser().parseFromString(html, 'text/html');
  const main = doc.querySelector('[role="main"]');
  if (!main) return null;
  main.querySelectorAll('.no-search, details.hide, .headerlink, script, style').forEach((el) => el.remove());
  const top = main.querySelector('section[id]');
  const says = (el) => phrase.test(el.textContent.replace(/\s+/g, ' '));
  const short = (els) => els.filter(says).sort((a, b) => a.textContent.length - b.textContent.length)[0];  // "Initiative" over "The round: Initiative, ..."
  const found = short([...main.querySelectorAll('section > :is(h2, h3, h4, h5, h6)')])
    ?? [...main.querySelectorAll('p > strong:first-child, p > b:first-child, dt')].find(says)
    ?? [...main.querySelectorAll('tr > :first-child')].find(says)
    ?? [...main.querySelectorAll('p, li, td, th, dd')].find(says);
  if (!found) return null;
  const places = [...main.querySelectorAll('section[id], table[id], p[id]')];
  let at = null;
  for (const el of places) {  // document order: the last place at or before the text, or holding it
    const pos = el.compareDocumentPosition(found);
    if (el === found || pos & Node.DOCUMENT_POSITION_FOLLOWING || pos & Node.DOCUMENT_POSITION_CONTAINED_BY) at = el;
    else break;
  }
  if (!at || (at === top && anchor)) return null;  // the page's top: the result's own place is as good
  return at.id;
}

function relink(summary, id) {  // the result's link opens at `id`; a second result for the same place goes
  const item = summary.parentElement, link = item?.querySelector('a');
  if (!link || !item.parentElement) return;  // a result already gone (a twin of one listed before it)
  const href = `${link.getAttribute('href').split('#')[0]}#${id}`;
  const twin = [...item.parentElement.querySelectorAll('li > a')].find((a) => a !== link && a.getAttribute('href') === href);
  if (twin) {
    const [later] = [twin.parentElement, item].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1));
    later.remove();  // the one listed first stays
    if (later === item) return;
  }
  link.setAttribute('href', href);
}

document.addEventListener('DOMContentLoaded', () => {
  if (typeof Search === 'undefined') return;
  const asked = () => new URLSearchParams(location.search).get('q') ?? '';
  const summarize = Search.makeSearchSummary;
  Search.makeSearchSummary = (html, keywords, anchor) => {
    const id = landing(html, asked(), anchor);
    const summary = summarize(html, keywords, id ? `#${id}` : anchor);
    if (id) queueMicrotask(() => relink(summary, id));  // once the summary is in its result
    return summary;
  };
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
  const sphinx = Search._performSearch;
  const perform = (query, searchTerms, excludedTerms, highlightTerms, objectTerms) => {  // every spelling of the query, merged
    const best = new Map();
    for (const [n, q] of variantQueries(query).entries()) {
      const parsed = n === 0 ? [query, searchTerms, excludedTerms, highlightTerms, objectTerms] : Search._parseQuery(q);
      if (n) parsed[1].forEach((t) => searchTerms.add(t)), parsed[3].forEach((t) => highlightTerms.add(t));  // snippets quote either
      for (const r of sphinx(...parsed)) {
        const key = `${r[0]}${r[2]}|${r[6]}`;
        if (!best.has(key) || best.get(key)[4] < r[4]) best.set(key, r);
      }
    }
    return [...best.values()];
  };
  Search._performSearch = (query, ...rest) => {
    let results = perform(query, ...rest);
    const index = Search._index;
    for (const q of variantQueries(query.toLowerCase().trim())) {
      if (q.length < 3) continue;
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
    const once = new Map();  // one result per place: the best scored
    for (const r of results) if (!once.has(r[0] + r[2]) || once.get(r[0] + r[2])[4] < r[4]) once.set(r[0] + r[2], r);
    results = [...once.values()];
    const named = [...query.matchAll(/\btables?\s+((?:\d+|a)-\d+)/gi)].map((m) => m[1].toUpperCase());
    if (named.length) {
      const naming = index.besm_tables || {};
      results = results.filter((r) => r[6] !== 'text' || named.every((t) => (naming[t] || []).includes(index.docnames.indexOf(r[0]))));
    }
    return results.sort(order);
  };
});
