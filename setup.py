"""Builds warptlm._core through the project's CMake build (pyproject.toml has
the metadata). Debian packages no scikit-build, so this is setuptools'
build_ext handing the extension to CMake: configure (once), build the
warptlm_python target, copy the extension and the CUDA shim into the wheel."""

import os
import shutil
import subprocess
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

ROOT = os.path.dirname(os.path.abspath(__file__))


class CMakeExtension(Extension):
    def __init__(self, name):
        super().__init__(name, sources=[])


class CMakeBuild(build_ext):
    def build_extension(self, ext):
        build_dir = os.environ.get("WARPTLM_BUILD_DIR") or os.path.join(os.path.abspath(self.build_temp), "cmake")
        build_dir = os.path.abspath(build_dir)
        if not os.path.exists(os.path.join(build_dir, "CMakeCache.txt")):
            generator = ["-G", "Ninja"] if shutil.which("ninja") else []
            subprocess.run(["cmake", "-S", ROOT, "-B", build_dir, *generator, "-DCMAKE_BUILD_TYPE=RelWithDebInfo",
                            f"-DPython3_EXECUTABLE={sys.executable}"], check=True)
        subprocess.run(["cmake", "--build", build_dir, "--target", "warptlm_python", "-j", str(os.cpu_count() or 1)],
                       check=True)
        built = os.path.join(build_dir, "python", "warptlm")
        core = next(f for f in os.listdir(built) if f.startswith("_core") and f.endswith(".so"))
        target = self.get_ext_fullpath(ext.name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        shutil.copyfile(os.path.join(built, core), target)
        include = os.path.join(os.path.dirname(target), "include")
        os.makedirs(include, exist_ok=True)
        shutil.copyfile(os.path.join(ROOT, "scenarios", "common", "cuda_shim.h"), os.path.join(include, "cuda_shim.h"))


setup(ext_modules=[CMakeExtension("warptlm._core")], cmdclass={"build_ext": CMakeBuild})
