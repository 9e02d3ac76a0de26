"""Figures of runs and benches (matplotlib, the ``plot`` extra): data assembly and drawing."""
