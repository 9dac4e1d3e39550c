"""Build the Cython extensions: every cext/<stem>.pyx becomes concordia_ai.<stem>.

Metadata lives in pyproject.toml; this file only declares the compiled modules.
"""

from pathlib import Path

import numpy
from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).resolve().parent
CEXT = HERE / "cext"
PXD_SHIM = HERE / "build" / "cython-include"

COMPILER_DIRECTIVES = {
    "language_level": 3,
    "boundscheck": False,
    "wraparound": False,
    "cdivision": True,
    "initializedcheck": False,
}


def pxd_shim() -> Path:
    """Expose cext/<stem>.pxd as concordia_ai/<stem>.pxd on Cython's include path.

    Cython finds a module's own .pxd (and `from concordia_ai.core cimport ...`) by its full name,
    i.e. as concordia_ai/core.pxd; the sources live in cext/, so link them into a package-shaped
    folder under build/.
    """
    package = PXD_SHIM / "concordia_ai"
    package.mkdir(parents=True, exist_ok=True)
    for old in package.glob("*.pxd"):
        old.unlink()
    (package / "__init__.pxd").write_text("")
    for pxd in CEXT.glob("*.pxd"):
        (package / pxd.name).symlink_to(pxd)
    return PXD_SHIM


def extensions():
    # -O3 only: no -march, so the build stays portable across machines.
    return [
        Extension(
            f"concordia_ai.{pyx.stem}",
            sources=[f"cext/{pyx.name}"],
            include_dirs=[numpy.get_include(), "cext"],
            define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
            extra_compile_args=["-O3"],
        )
        for pyx in sorted(CEXT.glob("*.pyx"))
    ]


setup(
    ext_modules=cythonize(
        extensions(),
        compiler_directives=COMPILER_DIRECTIVES,
        include_path=[str(pxd_shim()), "cext"],
    ),
)
