"""Agents for object transport (:mod:`belief.envs.transport`)."""
