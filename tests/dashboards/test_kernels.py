"""The dashboards server's kernels: started through `launch_kernel` (the server's own kernel spec); on Linux they talk to
the server over local sockets, never TCP ports."""
import json
import sys
from pathlib import Path

import pytest


def kernel_connection_files(pid: int) -> list[Path]:
    "The connection files of the kernels a process started through `launch_kernel` (its children's `-f` argument), read from /proc."
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            ppid = int(stat.read_text().rsplit(")", 1)[1].split()[1])
            args = (stat.parent / "cmdline").read_bytes().split(b"\0")
        except (OSError, IndexError, ValueError):
            continue  # a process that ended while being read
        if ppid == pid and b"launch_kernel()" in b" ".join(args) and b"-f" in args:
            found.append(Path(args[args.index(b"-f") + 1].decode()))
    return found


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="local sockets are used on Linux only")
def test_kernels_use_local_sockets_not_tcp_ports(dashboards_server):
    # many kernels picking free TCP ports at once can collide; a kernel that cannot bind never answers its page
    url, proc = dashboards_server
    files = kernel_connection_files(proc.pid)
    assert len(files) >= 1, files  # at least the home page's spare kernel, started by our spec (its output never dropped)
    for f in files:
        info = json.loads(f.read_text())
        assert info["transport"] == "ipc", (f, info["transport"])
        assert Path(info["ip"]).parent == f.parent  # the sockets sit beside the connection file, in the server's own folder


@pytest.mark.browser
def test_a_page_left_shuts_its_kernel_down(page, dashboards_server):
    "Leaving a page (a link followed, the tab closed) asks the server to shut its kernel down, and the server does at once."
    from tests.dashboards.crowd import kernel_of
    dashboards_url, proc = dashboards_server
    page.goto(dashboards_url + "/voila/render/dice_and_checks.ipynb")
    page.locator(".besm-calculator").first.wait_for(timeout=120_000)
    kernel = kernel_of(page.content())
    # the tests' wait before each tap (conftest, SETTLED_JS) hears the kernel: busy while it answers, then settled
    box = page.locator(".besm-field-expr input").first
    box.wait_for(timeout=30_000)
    page.wait_for_function("() => window.besmSettled()", timeout=30_000)
    before = page.evaluate("window.besmBusySeen")
    box.fill("4d6"); box.press("Tab")
    page.wait_for_function(f"() => window.besmBusySeen > {before}", timeout=30_000)
    page.wait_for_function("() => window.besmSettled()", timeout=30_000)
    running = lambda: [f.stem.removeprefix("kernel-") for f in kernel_connection_files(proc.pid)]
    assert kernel in running()
    page.goto(dashboards_url + "/voila/render/index.ipynb")  # the home page: the dice page is left
    page.wait_for_function("() => document.readyState === 'complete'")
    for _ in range(100):  # looked at again until the server has done it (the cull would take a minute here)
        if kernel not in running(): return
        page.wait_for_timeout(100)
    raise AssertionError(f"the dice page's kernel {kernel} still runs 10 s after the page was left")
