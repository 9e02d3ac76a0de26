"""The logic: formulas (immutable values), typed domains, the belief store, message trust policies, scenarios."""
