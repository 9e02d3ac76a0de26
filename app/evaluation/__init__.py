"""Evaluating models on ToM questions: generated story sets on disk, datasets, baselines and the harness
behind ``belief eval`` (docs/evaluation.md)."""
