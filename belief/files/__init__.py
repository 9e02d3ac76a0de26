"""Files: atomic writes, strict JSON input, output tables and trace completeness."""
