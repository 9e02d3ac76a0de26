"""Guandan agents: random, rule-based, the action recommender, the ToM planner and the optional LLM agent."""
