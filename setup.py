"""The one compiled part of garnet: Sigma Escape's search in C (engine/sigma/_native.c).

Everything else is in pyproject.toml. The extension is optional: without a C compiler
the install goes on and the computer player searches in Python (engine/sigma/native.py).
"""

from setuptools import Extension, setup

setup(
    ext_modules=[
        Extension(
            "engine.sigma._native",
            ["engine/sigma/_native.c"],
            # The C search must add and multiply exactly as the Python one does.
            extra_compile_args=["-O2", "-ffp-contract=off"],
            optional=True,
        )
    ]
)
