"""Agents for bomb defusal (:mod:`belief.envs.bomb`)."""
