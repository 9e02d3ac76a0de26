"""Agents for CollabCapture and CollabEscape (:mod:`belief.envs.maze`)."""
