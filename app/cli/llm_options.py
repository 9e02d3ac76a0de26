"""Endpoint options shared by every command that can use an LLM (one definition, same help everywhere).

``@endpoint_options`` adds them to a command that takes them as one dict argument ``endpoint``
(``base_url``, ``model``, ``api_key``, ``timeout``, ``max_retries``: the keywords of the LLM clients).
"""

from typing import Optional

import typer

from belief.app.cli.run_options import option_group

BASE_URL: Optional[str] = typer.Option(None, "--base-url", help="LLM: OpenAI-compatible endpoint "
                                       "(default: OPENAI_BASE_URL or the BELIEF_LLM_CONFIG file)")
MODEL: Optional[str] = typer.Option(None, "--model", help="LLM: model name (default: BELIEF_MODEL)")
API_KEY: Optional[str] = typer.Option(None, "--api-key", help="LLM: API key (default: OPENAI_API_KEY)")
# bounded as the LLM settings are (belief.llm.config.LLMConfig), checked whether or not an LLM is used
MAX_TIMEOUT = 3600.0


def _check_timeout(value: Optional[float]) -> Optional[float]:
    if value is not None and not 0 < value <= MAX_TIMEOUT:  # NaN fails too
        raise typer.BadParameter(f"{value} is not in the range 0<x<={MAX_TIMEOUT:g} (seconds)")
    return value


TIMEOUT: Optional[float] = typer.Option(None, "--timeout", callback=_check_timeout,
                                        help="LLM: seconds per request attempt, in total (connect, send, the whole "
                                        "reply)")
MAX_RETRIES: Optional[int] = typer.Option(None, "--max-retries", min=0, max=10,
                                          help="LLM: retries on 429/5xx/timeouts")

#: the endpoint options by keyword, for :func:`endpoint_options`
ENDPOINT = {"base_url": (Optional[str], BASE_URL), "model": (Optional[str], MODEL),
            "api_key": (Optional[str], API_KEY), "timeout": (Optional[float], TIMEOUT),
            "max_retries": (Optional[int], MAX_RETRIES)}
endpoint_options = option_group("endpoint", ENDPOINT)
