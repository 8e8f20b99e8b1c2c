"""garnet's benchmarks (``python -m bot bench``): the repository's, not the package's.

They stand the bot on the Discord fake of ``tests/fake`` and are not installed with
garnet; from an installed wheel, ``garnet bench`` says where to find them.
"""
