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
