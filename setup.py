"""Package metadata for besm_nb, read from settings.ini (nbdev 2 layout)."""
import shutil
from configparser import ConfigParser
from pathlib import Path

import setuptools
from setuptools.command.build_py import build_py

cfg = ConfigParser(delimiters=["="])
cfg.read("settings.ini", encoding="utf-8")
cfg = cfg["DEFAULT"]


def reqs(key: str) -> list[str]:
    return cfg.get(key, "").split()


class BuildWithDashboards(build_py):
    "Also copy the dashboards (nbs/dashboards: their notebooks and voila.json) into the package, so a wheel can serve them."

    def run(self):
        super().run()
        src = Path("nbs") / "dashboards"
        if self.dry_run or not src.is_dir(): return  # a clone installed for development serves nbs/dashboards itself
        dest = Path(self.build_lib) / cfg["lib_path"] / "dashboards"
        dest.mkdir(parents=True, exist_ok=True)
        for f in sorted(src.glob("*.ipynb")) + [src / "voila.json"]:
            shutil.copyfile(f, dest / f.name)


dashboards = reqs("dashboards_requirements")
docs = reqs("docs_requirements")
dev = sorted(set(dashboards + docs + reqs("dev_requirements")))

setuptools.setup(
    name=cfg["lib_name"],
    version=cfg["version"],
    description=cfg["description"],
    long_description=open("README.md", encoding="utf-8").read(),
    long_description_content_type="text/markdown",
    keywords=cfg["keywords"].split(),
    license="Apache-2.0",
    author=cfg["author"],
    author_email=cfg["author_email"],
    url=cfg["git_url"],
    classifiers=[
        "Development Status :: 3 - Alpha",
        "Intended Audience :: End Users/Desktop",
        "Programming Language :: Python :: 3.11",
        "Topic :: Games/Entertainment :: Role-Playing",
    ],
    packages=setuptools.find_packages(include=["besm_nb", "besm_nb.*"]),
    include_package_data=True,
    python_requires=">=" + cfg["min_python"],
    install_requires=reqs("requirements"),
    extras_require={"dashboards": dashboards, "docs": docs, "dev": dev},
    entry_points={"console_scripts": cfg["console_scripts"].split(), "nbdev": [f"{cfg['lib_path']}={cfg['lib_path']}._modidx:d"]},
    zip_safe=False,
    cmdclass={"build_py": BuildWithDashboards},
)
