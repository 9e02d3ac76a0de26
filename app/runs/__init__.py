"""Running episodes: the executor (local, serial, Ray), run directories and their manifests, progress, shards."""
