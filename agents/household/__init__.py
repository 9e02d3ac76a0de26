"""Agents for the household world (:mod:`belief.envs.household`)."""
