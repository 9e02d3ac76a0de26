"""``belief bench parse`` and ``belief bench checker``: speed and memory figures as JSON."""
