"""The installable package: pip builds it through the project's CMake build
(pyproject.toml + setup.py, Debian's setuptools and pip only), and what it
installs works from a fresh interpreter with the one version string."""

import os
import shutil
import subprocess
import sys

import pytest

import warptlm
from conftest import SOURCE_DIR

BUILD_DIR = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(warptlm.__file__))))


def test_pip_installs_a_working_package(tmp_path):
    if subprocess.run([sys.executable, "-m", "pip", "--version"], capture_output=True).returncode != 0:
        pytest.skip("pip is not installed (Debian package python3-pip)")
    if not os.path.exists(os.path.join(BUILD_DIR, "CMakeCache.txt")):
        pytest.skip("not run from a CMake build tree")
    source = tmp_path / "src"  # a copy, so pip's egg-info does not land in the checkout
    shutil.copytree(SOURCE_DIR, source, ignore=shutil.ignore_patterns("build*", ".git", "*.egg-info", "results"))
    target = tmp_path / "site"
    env = dict(os.environ, WARPTLM_BUILD_DIR=BUILD_DIR)  # reuse the configured build: no second compile
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--no-build-isolation", "--no-deps", "--no-index",
                        "--target", str(target), str(source)], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stdout + r.stderr
    probe = ("import warptlm, numpy as np\n"
             "k = warptlm.Kernel.from_cuda('__global__ void f(int *a) { a[threadIdx.x] += blockDim.x; }', 'f')\n"
             "a = np.zeros(8, np.int32)\n"
             "warptlm.Platform('small').launch(k, 1, 8, [a])\n"
             "print(warptlm.__version__, warptlm.__file__, list(a))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["PYTHONPATH"] = str(target)
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, env=env, cwd=tmp_path)
    assert out.returncode == 0, out.stderr
    version, path, values = out.stdout.split(" ", 2)
    with open(os.path.join(SOURCE_DIR, "VERSION")) as f:
        assert version == f.read().strip() == warptlm.__version__
    assert path.startswith(str(target)) and values.strip() == str([8] * 8)


def _package_imports():
    """{module: {sibling module it imports, at any depth of its code}} and the
    private names (a leading underscore) each imports from a sibling."""
    import ast

    package = os.path.dirname(os.path.abspath(warptlm.__file__))
    modules = {f[:-3] for f in os.listdir(package) if f.endswith(".py")}
    graph, private = {}, []
    for module in sorted(modules):
        with open(os.path.join(package, module + ".py"), encoding="utf-8") as f:
            tree = ast.parse(f.read())
        edges = set()
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom) or node.level != 1:
                continue
            targets = [node.module] if node.module else [a.name for a in node.names]
            for target in targets:
                if target in modules and target != module:
                    edges.add(target)
            if node.module in modules:
                private += [f"{module} imports {a.name} from {node.module}" for a in node.names
                            if a.name.startswith("_")]
        graph[module] = edges
    return graph, private


def test_package_modules_import_without_cycles_or_private_names():
    graph, private = _package_imports()
    assert not private, private
    # Depth-first search over the import graph, lazy imports included.
    state, stack = {}, []

    def visit(module):
        state[module] = "open"
        stack.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == "open":
                cycle = stack[stack.index(target):] + [target]
                raise AssertionError("import cycle: " + " -> ".join(cycle))
            if target not in state:
                visit(target)
        stack.pop()
        state[module] = "done"

    for module in sorted(graph):
        if module != "__init__" and module not in state:
            visit(module)
    assert "__init__" not in {t for edges in graph.values() for t in edges}
