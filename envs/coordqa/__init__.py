"""CoordinationQA-style questions with exact gold answers from CollabCapture / CollabEscape episodes
(:mod:`belief.envs.coordqa.questions`); ``from belief.envs.coordqa import tom_questions`` keeps working."""

from belief.envs.coordqa.questions import *  # noqa: F401,F403
from belief.envs.coordqa.questions import __all__  # noqa: F401
