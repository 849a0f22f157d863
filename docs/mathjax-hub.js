// The widget manager typesets widget labels with MathJax 2's call, MathJax.Hub.Queue(["Typeset", MathJax.Hub, el]);
// the site has MathJax 3, which has no Hub: give every MathJax object the page gets (the config, then MathJax itself)
// that one call, done the MathJax 3 way. Loaded before the widget manager, on pages with widgets.
(() => {
  const hub = {
    Queue: (...jobs) => {
      for (const job of jobs) {
        if (Array.isArray(job) && job[0] === 'Typeset' && job[2] instanceof Element) window.MathJax?.typesetPromise?.([job[2]]).catch(() => {});
      }
    },
  };
  const give = (mj) => { if (mj && typeof mj === 'object' && !('Hub' in mj)) mj.Hub = hub; return mj; };
  let current = give(window.MathJax);
  Object.defineProperty(window, 'MathJax', { configurable: true, enumerable: true, get: () => current, set: (v) => { current = give(v); } });
})();
