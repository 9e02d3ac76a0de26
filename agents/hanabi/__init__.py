"""Agents for Hanabi (:mod:`belief.envs.hanabi`)."""
