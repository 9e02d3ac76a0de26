import pytest


@pytest.fixture
def far_room_env():
    """A new bomb_v0 (seed 0), the agent to act, and a room not adjacent to where it stands:
    ``(env, agent, room)``."""
    from belief.envs.bomb import environment

    e = environment.raw_env(seed=0)
    agent = e.agent_selection
    here = e.world.locations[agent]
    far = next(r for r in e.world.map.rooms if r != here and not e.world.map.adjacent(here, r))
    return e, agent, far
