"""The compiled parts of garnet: Sigma Escape's search in C (engine/sigma/_native.c) and
Cairo Corridor's analysis in C (engine/cairo/_native.c).

Everything else is in pyproject.toml. The extensions are optional: without a C compiler
the install goes on, the computer player searches in Python (engine/sigma/native.py)
and Cairo Corridor is analysed in Python (engine/cairo/rules.py), the same answers.
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
        ),
        Extension(
            "engine.cairo._native",
            ["engine/cairo/_native.c"],
            extra_compile_args=["-O2"],
            optional=True,
        ),
    ]
)
