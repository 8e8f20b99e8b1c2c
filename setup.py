"""The compiled parts of garnet: Sigma Escape's search in C (engine/sigma/_native.c),
Cairo Corridor's analysis in C (engine/cairo/_native.c), and the catalogs
(bot/locale/<language>/LC_MESSAGES/garnet.po compiled to the garnet.mo that garnet reads:
docs/translating.md).

Everything else is in pyproject.toml. The extensions are optional: without a C compiler
the install goes on, the computer player searches in Python (engine/sigma/native.py)
and Cairo Corridor is analysed in Python (engine/cairo/rules.py), the same answers.
The catalogs are not: a wheel without them would speak English only, so every build
(the wheel, ``pip install -e .``, ``make .venv/.installed``) compiles them first.
"""

from pathlib import Path

from setuptools import Command, Extension, setup
from setuptools.command.build_py import build_py

LOCALE = Path(__file__).resolve().parent / "bot" / "locale"


def compile_catalogs() -> list[Path]:
    """Each language's garnet.po compiled to garnet.mo beside it (fuzzy messages left out:
    they say English until a translator confirms them); the files written."""
    from babel.messages.mofile import write_mo  # a build requirement (pyproject.toml)
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(LOCALE.glob("*/LC_MESSAGES/garnet.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3].replace("-", "_"))
        # An untranslated message (or plural form) is left out, so that it says English
        # (Babel would write a plural's singular in every form).
        for message in list(catalog):
            forms = message.string if isinstance(message.string, list | tuple) else [
                message.string]
            if message.id and not all(forms):
                del catalog[message.id]
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog, use_fuzzy=False)
        written.append(mo)
    return written


class BuildWithCatalogs(build_py):
    """build_py, with the catalogs compiled before the package's files are collected."""

    def run(self) -> None:
        compile_catalogs()
        super().run()


class CompileCatalogs(Command):
    """``python setup.py compile_catalogs`` (``make compile``)."""

    description = "compile bot/locale's catalogs to .mo"
    user_options: list[tuple[str, str | None, str]] = []

    def initialize_options(self) -> None:
        pass

    def finalize_options(self) -> None:
        pass

    def run(self) -> None:
        for mo in compile_catalogs():
            print(f"compiled {mo.relative_to(LOCALE.parent.parent)}")


setup(
    cmdclass={"build_py": BuildWithCatalogs, "compile_catalogs": CompileCatalogs},
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
    ],
)
