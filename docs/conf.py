"""Sphinx configuration for the besm_nb rules reference (copied beside the converted notebooks by build.py)."""
project = "besm_nb"
author = "besm_nb contributors"
copyright = "2026, besm_nb contributors"
extensions = ["myst_nb", "sphinx.ext.mathjax"]
exclude_patterns = ["_build", "**.ipynb_checkpoints"]
html_theme = "furo"
html_title = "besm_nb rules reference"
html_static_path = ["_static"]
html_css_files = ["besm.css"]
html_favicon = "favicon.svg"  # a page with no icon makes the browser ask for /favicon.ico, and log its 404 as an error
html_extra_path = ["_extra"]

# the notebooks were executed by build.py (with widget state); myst-nb only renders them
nb_execution_mode = "off"
nb_render_markdown_format = "myst"
myst_enable_extensions = ["dollarmath", "colon_fence"]
myst_heading_anchors = 3

# everything the pages load comes from _static: no CDN
mathjax_path = "mathjax/tex-chtml.js"
# mathjax-hub.js: the widget manager speaks MathJax 2 to label typesetting; the site has MathJax 3 (see the file)
nb_ipywidgets_js = {"mathjax-hub.js": {}, "require.js": {}, "widgets/embed-amd.js": {"data-jupyter-widgets-cdn": "_static/widgets/"}}
html_js_files = ["besm-search.js", "besm-follow.js", "besm-order.js", ("besm-a11y.js", {"defer": "defer"})]  # besm-follow.js: a live tracker's page follows play (besm_nb.ui.serve.FOLLOW_JS); besm-a11y.js: the widgets named (A11Y_JS); besm-order.js: a click waits for the value typed before it (ORDER_JS)


def _unsearched(app, doctree):
    """Search indexes and quotes what a reader reads: folded code (proofs, plumbing) and folded function signatures are
    marked `no-search`, which Sphinx's index skips and besm-search.js leaves out of the quoted snippets."""
    from docutils import nodes
    for cell in doctree.findall(nodes.container):
        if cell.get("nb_element") != "cell_code": continue
        folded_output = cell.get("hide_mode") in ("output", "input+output", "all")
        for part in cell.children:
            if part.get("nb_element") == "cell_code_source" or (folded_output and part.get("nb_element") == "cell_code_output"):
                part["classes"].append("no-search")


def setup(app):
    app.connect("doctree-read", _unsearched)
