"""Testing helpers users can import: hypothesis strategies (``belief.testing.strategies``)."""
