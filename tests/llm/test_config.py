"""LLM settings: explicit arguments > environment > config file > defaults, through pydantic-settings."""
import json

import pytest

from belief.errors import BeliefError
from belief.llm.config import ENV_PREFIX, OLDER_ENV_NAMES, LLMConfig, LLMSettings
from belief.llm.errors import LLMConfigError

FIELDS = list(LLMConfig.model_fields)


@pytest.fixture
def clean_env(monkeypatch):
    """No LLM variable of the developer's shell leaks in: every BELIEF_LLM_<FIELD>, the older names, the file."""
    for name in FIELDS:
        monkeypatch.delenv(ENV_PREFIX + name.upper(), raising=False)
    for var in (*OLDER_ENV_NAMES.values(), "BELIEF_LLM_CONFIG"):
        monkeypatch.delenv(var, raising=False)
    return monkeypatch


def write_toml(tmp_path, text, name="llm.toml"):
    p = tmp_path / name
    p.write_text(text)
    return p


def test_each_source_beats_the_one_below(clean_env, tmp_path):
    """timeout is set in all four places, max_retries in three, temperature in two, seed in one."""
    toml = write_toml(tmp_path, "[llm]\ntimeout = 5\nmax_retries = 1\ntemperature = 0.5\nseed = 7\n")
    clean_env.setenv("BELIEF_LLM_CONFIG", str(toml))
    clean_env.setenv("BELIEF_LLM_TIMEOUT", "6")
    clean_env.setenv("BELIEF_LLM_MAX_RETRIES", "3")
    cfg = LLMConfig.resolve(timeout=7)
    assert cfg.timeout == 7.0  # argument > environment > file > default (30)
    assert cfg.max_retries == 3  # environment > file > default (2)
    assert cfg.temperature == 0.5  # file > default (0)
    assert cfg.seed == 7 and cfg.max_tokens == 512  # the file's value; a default
    assert type(cfg) is LLMConfig


def test_none_arguments_are_not_given(clean_env):
    clean_env.setenv("BELIEF_LLM_MODEL", "env-model")
    assert LLMConfig.resolve(model=None, base_url=None).model == "env-model"


def test_the_older_environment_names_still_work_below_the_prefixed_ones(clean_env, tmp_path):
    clean_env.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1/")
    clean_env.setenv("OPENAI_API_KEY", "k-env")
    clean_env.setenv("BELIEF_MODEL", "older-model")
    cfg = LLMConfig.resolve()
    assert (cfg.base_url, cfg.api_key, cfg.model) == ("http://127.0.0.1:9/v1", "k-env", "older-model")
    assert cfg.configured
    clean_env.setenv("BELIEF_LLM_MODEL", "prefixed-model")
    assert LLMConfig.resolve().model == "prefixed-model"
    toml = write_toml(tmp_path, 'model = "file-model"\n')
    assert LLMConfig.resolve(config_path=toml).model == "prefixed-model"  # any environment name beats the file
    clean_env.delenv("BELIEF_LLM_MODEL")
    clean_env.delenv("BELIEF_MODEL")
    assert LLMConfig.resolve(config_path=toml).model == "file-model"


def test_empty_variables_count_as_unset(clean_env, tmp_path):
    clean_env.setenv("BELIEF_MODEL", "")
    clean_env.setenv("BELIEF_LLM_TIMEOUT", "")
    toml = write_toml(tmp_path, 'model = "file-model"\ntimeout = 4\n')
    cfg = LLMConfig.resolve(config_path=toml)
    assert cfg.model == "file-model" and cfg.timeout == 4.0


def test_config_path_argument_beats_the_config_variable(clean_env, tmp_path):
    a = write_toml(tmp_path, 'model = "a"\n', "a.toml")
    b = tmp_path / "b.json"
    b.write_text(json.dumps({"llm": {"model": "b", "structured": "text"}}))
    clean_env.setenv("BELIEF_LLM_CONFIG", str(a))
    assert LLMConfig.resolve().model == "a"
    cfg = LLMConfig.resolve(config_path=b)
    assert cfg.model == "b" and cfg.structured == "text"


def test_an_explicit_environment_mapping_replaces_the_process_environment(clean_env, tmp_path):
    clean_env.setenv("BELIEF_LLM_MODEL", "process-model")
    toml = write_toml(tmp_path, 'model = "file-model"\ntimeout = 5\n')
    env = {"OPENAI_BASE_URL": "http://127.0.0.1:9/v1", "BELIEF_LLM_MAX_RETRIES": "4", "BELIEF_LLM_CONFIG": str(toml)}
    cfg = LLMConfig.resolve(env=env)
    assert (cfg.model, cfg.timeout, cfg.max_retries, cfg.base_url) == ("file-model", 5.0, 4, "http://127.0.0.1:9/v1")
    assert LLMConfig.resolve(env={}).model is None  # nothing from the process


def test_every_field_has_a_prefixed_variable(clean_env):
    values = {"base_url": "http://h:1/v1", "api_key": "k", "model": "m", "timeout": "9", "max_retries": "0",
              "max_reply_bytes": "4096", "temperature": "1.5", "max_tokens": "64", "seed": "3",
              "structured": "json_object", "cache": "false", "cache_path": "/tmp/x.sqlite"}
    assert set(values) == set(FIELDS)
    for name, value in values.items():
        clean_env.setenv(ENV_PREFIX + name.upper(), value)
    cfg = LLMConfig.resolve()
    assert cfg.model_dump() == {"base_url": "http://h:1/v1", "api_key": "k", "model": "m", "timeout": 9.0,
                                "max_retries": 0, "max_reply_bytes": 4096, "temperature": 1.5, "max_tokens": 64,
                                "seed": 3, "structured": "json_object", "cache": False,
                                "cache_path": "/tmp/x.sqlite"}


def test_settings_read_the_process_environment_and_config_itself_does_not(clean_env):
    clean_env.setenv("BELIEF_LLM_SEED", "11")
    assert LLMSettings().seed == 11 and LLMSettings(seed=12).seed == 12
    assert LLMConfig().seed is None  # a plain LLMConfig is exactly what it was given


@pytest.mark.parametrize("var,value,needle", [
    ("BELIEF_LLM_TIMEOUT", "soon", "timeout"),
    ("BELIEF_LLM_STRUCTURED", "yaml", "structured"),
    ("OPENAI_BASE_URL", "ftp://x", "base_url"),
])
def test_a_bad_environment_value_is_one_config_error(clean_env, var, value, needle):
    clean_env.setenv(var, value)
    with pytest.raises(LLMConfigError, match=needle) as ei:
        LLMConfig.resolve()
    assert isinstance(ei.value, BeliefError) and "\n" not in str(ei.value)


def test_an_unknown_argument_is_a_config_error(clean_env):
    with pytest.raises(LLMConfigError, match="modle"):
        LLMConfig.resolve(modle="m")


def test_a_bad_config_file_named_by_the_variable_is_an_error_naming_the_file(clean_env, tmp_path):
    bad = write_toml(tmp_path, "temprature = 1\n")
    clean_env.setenv("BELIEF_LLM_CONFIG", str(bad))
    with pytest.raises(LLMConfigError, match=r"llm\.toml: temprature"):
        LLMConfig.resolve(model="m")
    clean_env.setenv("BELIEF_LLM_CONFIG", str(tmp_path / "missing.toml"))
    with pytest.raises(LLMConfigError, match="cannot read LLM config"):
        LLMConfig.resolve(model="m")


@pytest.mark.parametrize("content,needle", [
    ('{"model": "m", "temprature": 1}', "temprature"),
    ('{"model": "m", "timeout": -1}', "timeout"),
    ('{"model": "m", "base_url": "ftp://x"}', "base_url"),
    ('{"model": ', "invalid JSON"),
    ('[1, 2]', "expected a JSON object"),
])
def test_bad_config_files_are_clear_errors(tmp_path, content, needle):
    p = tmp_path / "c.json"
    p.write_text(content)
    with pytest.raises(LLMConfigError, match=needle):
        LLMConfig.load(p)


def test_a_binary_or_invalid_toml_config_is_a_clear_error(tmp_path):
    bad = tmp_path / "llm.toml"
    bad.write_bytes(b"\xff\xfe\x00binary")
    with pytest.raises(LLMConfigError, match="not UTF-8"):
        LLMConfig.load(bad)
    bad.write_text("model = \n")
    with pytest.raises(LLMConfigError, match="invalid TOML"):
        LLMConfig.load(bad)
