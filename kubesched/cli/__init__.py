"""Command-line interface: ``python -m kubesched <command>``."""
