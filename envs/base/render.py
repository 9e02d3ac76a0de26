"""PettingZoo's render convention, once for every world: ``render_mode`` is checked when the env is made
(one of its ``metadata["render_modes"]`` or None); ``render()`` prints the text and returns None in
``"human"`` mode, returns it in ``"ansi"`` mode, and returns None without a mode."""

from __future__ import annotations

from typing import Optional

from belief.errors import BeliefError


class RenderModeError(BeliefError, ValueError):
    """A render_mode the environment does not offer."""


def check_render_mode(render_mode: Optional[str], metadata: dict) -> Optional[str]:
    modes = tuple(metadata.get("render_modes", ()))
    if render_mode is not None and render_mode not in modes:
        raise RenderModeError(f"{metadata.get('name', 'this environment')}: unknown render_mode {render_mode!r}; "
                              f"expected one of {', '.join(modes)} or None")
    return render_mode


def rendered(render_mode: Optional[str], text: str) -> Optional[str]:
    """What ``render()`` gives for ``text`` in ``render_mode``."""
    if render_mode == "human":
        print(text)
        return None
    return text if render_mode == "ansi" else None


__all__ = ["RenderModeError", "check_render_mode", "rendered"]
