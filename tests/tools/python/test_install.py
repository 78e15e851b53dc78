"""`cmake --install` puts wallgo where Debian's python3 finds it under the
prefix (lib/python3.X/dist-packages), and it imports from there alone."""

import os
import subprocess
import sys

import pytest


def test_installed_module_imports(tmp_path):
    build = os.environ.get("WALLGO_BUILD_DIR")
    if not build:
        pytest.skip("WALLGO_BUILD_DIR is not set")
    subprocess.run(["cmake", "--install", build, "--prefix", str(tmp_path)],
                   check=True, capture_output=True, timeout=120)
    version = f"python{sys.version_info.major}.{sys.version_info.minor}"
    site = tmp_path / "lib" / version / "dist-packages"
    out = subprocess.run(
        ["/usr/bin/python3", "-c",
         "import wallgo, wallgo.data; print(wallgo.__file__, wallgo.Game().perft(2))"],
        env={"PYTHONPATH": str(site), "PATH": os.environ.get("PATH", "")},
        cwd=str(tmp_path), capture_output=True, text=True, check=True).stdout
    assert out.startswith(str(site)) and out.split()[1] == "1980"
