"""Agents for collaborative block building (:mod:`belief.envs.blocks`)."""
