"""The one shape of every benchmark's results: paired comparisons, the metrics of each world, their tables and
the JSON schema that `belief plot` validates. Imported by the runners and the benches alike."""
