"""Chefs for overcooked_v0: the belief chef (partner-subgoal inference, :mod:`.belief`), its ablation without
inference, overcooked-ai's greedy planning agent and a random chef (:mod:`.baselines`), and an LLM chef
(:mod:`.llm`)."""
