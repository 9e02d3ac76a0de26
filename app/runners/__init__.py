"""Episode runners and benches, one module per world: play a team of agents, ask ToM questions, report."""
