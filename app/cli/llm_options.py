"""Endpoint options shared by every command that can use an LLM (one definition, same help everywhere)."""

from typing import Optional

import typer

BASE_URL: Optional[str] = typer.Option(None, "--base-url", help="LLM: OpenAI-compatible endpoint "
                                       "(default: OPENAI_BASE_URL or the BELIEF_LLM_CONFIG file)")
MODEL: Optional[str] = typer.Option(None, "--model", help="LLM: model name (default: BELIEF_MODEL)")
API_KEY: Optional[str] = typer.Option(None, "--api-key", help="LLM: API key (default: OPENAI_API_KEY)")
TIMEOUT: Optional[float] = typer.Option(None, "--timeout", help="LLM: seconds per request attempt, in total "
                                       "(connect, send, the whole reply)")
MAX_RETRIES: Optional[int] = typer.Option(None, "--max-retries", help="LLM: retries on 429/5xx/timeouts")
