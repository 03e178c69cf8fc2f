"""Comparing the settings of a configuration file before and after a PR."""

from __future__ import annotations

from prhub_pipeline.config import ScoringConfig
from prhub_pipeline.modelling.scoring.config_diff import (
    compare_config,
    compared_files,
    config_file_diffs,
    config_files,
    deleted_config_files,
)
from prhub_pipeline.modelling.scoring.risks import flag_risks
from prhub_pipeline.records import ConfigFileDiff, FileVersions, ReviewData, SettingChange
from prhub_pipeline_tests.test_importance import make_pr
from prhub_pipeline_tests.test_risks import with_statuses

YAML_PATH = "verl/trainer/config/ppo_trainer.yaml"
PY_PATH = "verl/trainer/config/algorithm.py"

PPO_TRAINER = """\
# The PPO trainer's defaults.
algorithm:
  gamma: 1.0
  use_legacy_worker_impl: auto  # the new workers are still opt-in
  kl_ctrl:
    type: fixed
    kl_coef: 0.001
data:
  max_prompt_length: 512
  filter_overlong_prompts: False
defaults:
  - actor@actor_rollout_ref.actor: dp_actor
  - _self_
extra_configs: {}
"""


def change(key: str, before: str | None, after: str | None) -> SettingChange:
    return SettingChange(key=key, before=before, after=after)


def test_yaml_settings_are_compared_by_dotted_key() -> None:
    # verl #5951 switched the worker implementation; #4211 added a seed; #2433 moved keys out.
    after = (
        PPO_TRAINER.replace("use_legacy_worker_impl: auto", "use_legacy_worker_impl: disable")
        .replace("  max_prompt_length: 512\n", "")
        .replace("kl_coef: 0.001", "kl_coef: 0.001\n    horizon: 10000")
    )
    assert compare_config(YAML_PATH, PPO_TRAINER, after) == [
        change("algorithm.kl_ctrl.horizon", None, "10000"),
        change("algorithm.use_legacy_worker_impl", "auto", "disable"),
        change("data.max_prompt_length", "512", None),
    ]


def test_comments_formatting_quoting_and_order_change_no_setting() -> None:
    # verl #890 and #1212 rewrote comments and trailing spaces of ppo_trainer.yaml.
    after = (
        PPO_TRAINER.replace("  # the new workers are still opt-in", "  # see the migration guide")
        .replace("use_legacy_worker_impl: auto", 'use_legacy_worker_impl: "auto"')
        .replace("filter_overlong_prompts: False", "filter_overlong_prompts: false   ")
        .replace("    type: fixed\n    kl_coef: 0.001\n", "    kl_coef: 1e-3\n    type: fixed\n")
    )
    # YAML 1.1 reads 1e-3 as a string, Hydra as the number 0.001: no change.
    assert compare_config(YAML_PATH, PPO_TRAINER, after) == []
    assert compare_config(YAML_PATH, PPO_TRAINER, PPO_TRAINER + "\n# trailing note\n") == []


def test_lists_and_empty_mappings_are_one_value_but_hydra_defaults_are_entries() -> None:
    # verl #5287 added a config group to the defaults list of ppo_trainer.yaml.
    after = PPO_TRAINER.replace("  - _self_\n", "  - critic@critic: dp_critic\n  - _self_\n")
    after = after.replace("extra_configs: {}", "extra_configs:\n  sampling:\n    seed: 1")
    after += "stop_tokens: [eos]\n"
    assert compare_config(YAML_PATH, PPO_TRAINER, after) == [
        change("defaults[critic@critic]", None, "dp_critic"),
        # An empty mapping that gains a key is widened, not removed.
        change("extra_configs.sampling.seed", None, "1"),
        change("stop_tokens", None, '["eos"]'),
    ]
    swapped = PPO_TRAINER.replace(": dp_actor", ": megatron_actor").replace("  - _self_\n", "")
    assert compare_config(YAML_PATH, PPO_TRAINER, swapped) == [
        change("defaults[_self_]", "included", None),
        change("defaults[actor@actor_rollout_ref.actor]", "dp_actor", "megatron_actor"),
    ]
    # A defaults list of names only (verl #1009's `defaults: [ppo_trainer, _self_]`).
    assert compare_config(YAML_PATH, "x: 1\n", "defaults: [ppo_trainer, _self_]\nx: 1\n") == [
        change("defaults[_self_]", None, "included"),
        change("defaults[ppo_trainer]", None, "included"),
    ]
    longer = PPO_TRAINER + "stop_tokens: [eos]\n"
    assert compare_config(YAML_PATH, longer, longer.replace("[eos]", "[eos, pad]")) == [
        change("stop_tokens", '["eos"]', '["eos", "pad"]')
    ]


def test_a_list_of_mappings_is_compared_entry_by_entry() -> None:
    # verl #2184 named the gsm8k interaction: a new field of an entry, no changed setting.
    before = """\
interaction:
  - class_name: verl.interactions.gsm8k_interaction.Gsm8kInteraction
    config: {}
"""
    named = before.replace("  - class_name", "  - name: gsm8k\n    class_name")
    # The entry is named by its class, which it kept, not by the name it gained.
    assert compare_config("interaction_config.yaml", before, named) == [
        change("interaction[Gsm8kInteraction].name", None, "gsm8k")
    ]
    # verl #1948 gave a tool's empty config a type: the entry's setting changes.
    typed = before.replace("config: {}", "config:\n      type: native")
    assert compare_config("interaction_config.yaml", before, typed) == [
        change("interaction[Gsm8kInteraction].config.type", None, "native")
    ]
    assert compare_config("tools.yaml", "tools: []\n", "tools:\n  - name: search\n") == [
        change("tools[search].name", None, "search")  # an empty list that gains entries widens
    ]
    removed = compare_config(
        "tools.yaml", "tools:\n  - name: a\n  - name: b\n", "tools:\n  - name: a\n"
    )
    assert removed == [change("tools[b].name", "b", None)]


def test_an_entry_inserted_in_a_list_of_mappings_changes_only_itself() -> None:
    tools = """\
tools:
  - class_name: verl.tools.gsm8k_tool.Gsm8kTool
    config: {type: native}
  - class_name: verl.tools.search_tool.SearchTool
    config: {type: native, retrieval_service_url: http://127.0.0.1:8000/retrieve}
"""
    inserted = tools.replace(
        "  - class_name: verl.tools.search_tool",
        "  - class_name: verl.tools.geo3k_tool.Geo3kTool\n    config: {type: native}\n"
        "  - class_name: verl.tools.search_tool",
    )
    assert compare_config("tool_config.yaml", tools, inserted) == [
        change("tools[Geo3kTool].class_name", None, "verl.tools.geo3k_tool.Geo3kTool"),
        change("tools[Geo3kTool].config.type", None, "native"),
    ]
    # Two entries of one class are named by their full class path, or else by position.
    same_class = "items:\n  - class_name: a.Tool\n  - class_name: b.Tool\n"
    assert compare_config("x.yaml", same_class, same_class.replace("b.Tool", "c.Tool")) == [
        change("items[b.Tool].class_name", "b.Tool", None),
        change("items[c.Tool].class_name", None, "c.Tool"),
    ]
    unnamed = "items:\n  - size: 1\n  - size: 2\n"
    assert compare_config("x.yaml", unnamed, unnamed.replace("size: 2", "size: 3")) == [
        change("items[1].size", "2", "3")
    ]
    # Unnamed entries are matched by content: aibrix #2312 added a route in the middle of
    # envoy.yaml's routes, and every route after it read as changed.
    routes = "routes:\n" + "".join(
        f"  - match: {{prefix: /{name}}}\n    route: {{cluster: {cluster}, timeout: 10s}}\n"
        for name, cluster in (("v1/models", "gateway"), ("metrics", "metrics"), ("v1", "vllm"))
    )
    inserted = routes.replace(
        "  - match: {prefix: /v1}\n",
        "  - match: {prefix: /v1/responses}\n    route: {cluster: gateway, timeout: 120s}\n"
        "  - match: {prefix: /v1}\n",
    )
    assert compare_config("envoy.yaml", routes, inserted) == [
        change("routes[2].match.prefix", None, "/v1/responses"),
        change("routes[2].route.cluster", None, "gateway"),
        change("routes[2].route.timeout", None, "120s"),
    ]
    # So are those of a list inside a named entry (envoy's routes are a virtual host's).
    hosts = "hosts:\n  - name: api\n    " + routes.replace("\n", "\n    ").rstrip() + "\n"
    nested = "hosts:\n  - name: api\n    " + inserted.replace("\n", "\n    ").rstrip() + "\n"
    assert [c.key for c in compare_config("envoy.yaml", hosts, nested) or []] == [
        "hosts[api].routes[2].match.prefix",
        "hosts[api].routes[2].route.cluster",
        "hosts[api].routes[2].route.timeout",
    ]
    # ... a changed entry among shifted ones is that entry's change, by its new position ...
    changed = inserted.replace("{cluster: vllm, timeout: 10s}", "{cluster: vllm, timeout: 60s}")
    assert (compare_config("envoy.yaml", routes, changed) or [])[-1] == change(
        "routes[3].route.timeout", "10s", "60s"
    )
    # ... and one removed from the middle is named by where it was.
    removed = routes.replace("  - match: {prefix: /metrics}\n", "").replace(
        "    route: {cluster: metrics, timeout: 10s}\n", ""
    )
    assert compare_config("envoy.yaml", routes, removed) == [
        change("routes[was 1].match.prefix", "/metrics", None),
        change("routes[was 1].route.cluster", "metrics", None),
        change("routes[was 1].route.timeout", "10s", None),
    ]
    # A defaults entry may select several options of its group (verl #5680).
    assert compare_config(
        YAML_PATH,
        "defaults:\n  - engine@x: [megatron]\n",
        "defaults:\n  - engine@x: [megatron, mindspeed]\n",
    ) == [change("defaults[engine@x]", '["megatron"]', '["megatron", "mindspeed"]')]


def test_an_interpolation_of_a_setting_in_the_same_file_is_compared_by_its_value() -> None:
    # verl #5184: the actor's flag read async_training's, which was true, and became `true`.
    before = """\
async_training:
  use_rollout_log_probs: true
  staleness: 0.5
actor_rollout_ref:
  actor:
    use_rollout_log_probs: ${oc.select:async_training.use_rollout_log_probs, True}
    strategy: fsdp
    seed: 1
  ref:
    strategy: fsdp
    seed: 1
    micro_batch: ${oc.select:.micro_batch_size, {}}
    micro_batch_size: 8
"""
    after = (
        before.replace("${oc.select:async_training.use_rollout_log_probs, True}", "true")
        .replace("  use_rollout_log_probs: true\n", "", 1)
        # verl #2130: the ref follows the actor's strategy, which is the same: no change.
        .replace(
            "    strategy: fsdp\n    seed: 1\n    micro",
            "    strategy: ${..actor.strategy}\n"
            "    seed: ${actor_rollout_ref.actor.seed}\n    micro",
        )
        .replace("seed: 1\n  ref", "seed: 2\n  ref")  # ... but the seed it follows changed
        # The reference's text is unchanged: its target's change is the one reported.
        .replace("micro_batch_size: 8", "micro_batch_size: 16")
    )
    assert compare_config(YAML_PATH, before, after) == [
        change("actor_rollout_ref.actor.seed", "1", "2"),
        change("actor_rollout_ref.ref.micro_batch_size", "8", "16"),
        change("actor_rollout_ref.ref.seed", "1", "${actor_rollout_ref.actor.seed}"),
        change("async_training.use_rollout_log_probs", "true", None),
    ]
    # `.x` is a sibling and `..x` the parent's sibling, as OmegaConf reads them.
    nested = "a:\n  x: 4\n  y: 4\n  b:\n    z: 4\n"
    relative = nested.replace("y: 4", "y: ${.x}").replace("z: 4", "z: ${..x}")
    assert compare_config(YAML_PATH, nested, relative) == []
    assert compare_config(YAML_PATH, nested, relative.replace("x: 4", "x: 5")) == [
        change("a.b.z", "4", "${..x}"),
        change("a.x", "4", "5"),
        change("a.y", "4", "${.x}"),
    ]
    # A reference to a mapping, or to a key the file does not hold, is compared as written.
    qat = "actor:\n  qat: {enable: false}\nrollout:\n  qat: ${oc.select:actor.qat,null}\n"
    moved = qat.replace("oc.select:actor.qat", "oc.select:actor.fsdp_config.qat")
    assert compare_config(YAML_PATH, qat, moved) == [
        change(
            "rollout.qat", "${oc.select:actor.qat,null}", "${oc.select:actor.fsdp_config.qat,null}"
        )
    ]


def test_python_configs_compare_defaults_not_type_hints_or_docs() -> None:
    before = '''\
from dataclasses import dataclass, field
from typing import Optional

__all__ = ["AlgoConfig"]


@dataclass
class AlgoConfig(BaseConfig):
    """The algorithm's settings."""

    _mutable_fields = {"gamma"}
    _target_: str = "verl.trainer.config.AlgoConfig"
    gamma: float = 1.0
    lam: Optional[float] = None
    norm_adv_by_std_in_grpo: bool = True
    kl_penalty: str = field(default="kl", metadata={"help": "the KL estimator"})
    filter_groups: list[str] = field(default_factory=list)
    required_name: str = field(metadata={"help": "no default"})

    def __post_init__(self):
        self.gamma = float(self.gamma)


DEFAULT_ESTIMATOR = "gae"
'''
    after = (
        before.replace("Optional[float] = None", "float | None = None")  # a type-hint rewrite
        .replace('"""The algorithm\'s settings."""', '"""Settings of the RL algorithm."""')
        .replace('_mutable_fields = {"gamma"}', '_mutable_fields = {"gamma", "lam"}')
        .replace("norm_adv_by_std_in_grpo: bool = True", "norm_adv_by_std_in_grpo: bool = False")
        .replace('default="kl", metadata={"help": "the KL estimator"}', 'default="low_var_kl"')
        .replace("default_factory=list", "default_factory=lambda: ['a']")
        .replace('"verl.trainer.config.AlgoConfig"', '"verl.trainer.config.DiffusionAlgoConfig"')
        .replace('metadata={"help": "no default"}', 'metadata={"help": "still none"}')
        .replace('DEFAULT_ESTIMATOR = "gae"', 'DEFAULT_ESTIMATOR = "grpo"')
    )
    assert compare_config(PY_PATH, before, after) == [
        change(
            "AlgoConfig._target_",
            "'verl.trainer.config.AlgoConfig'",
            "'verl.trainer.config.DiffusionAlgoConfig'",
        ),
        change("AlgoConfig.filter_groups", "[]", "['a']"),
        change("AlgoConfig.kl_penalty", "'kl'", "'low_var_kl'"),
        change("AlgoConfig.norm_adv_by_std_in_grpo", "True", "False"),
        change("DEFAULT_ESTIMATOR", "'gae'", "'grpo'"),
    ]


def test_unreadable_versions_are_not_comparable() -> None:
    assert compare_config(YAML_PATH, None, PPO_TRAINER) is None
    assert compare_config(YAML_PATH, PPO_TRAINER, "algorithm: [unclosed\n") is None
    assert compare_config(PY_PATH, "x = 1\n", "def broken(:\n") is None
    assert compare_config("verl/trainer/config/notes.txt", "a", "b") is None
    diffs = config_file_diffs(
        "acme/widgets",
        [
            # Read across the wrong commits (a PR rebased in several): the PR changed the file.
            FileVersions(pr_number=3, path=YAML_PATH, before=PPO_TRAINER, after=PPO_TRAINER),
            FileVersions(pr_number=4, path=YAML_PATH, before=None, after=PPO_TRAINER),
            # A new file: every setting is added.
            FileVersions(pr_number=5, path=YAML_PATH, status="added", after="x: 1\n"),
            # Only a comment changed: comparable, no setting changed.
            FileVersions(pr_number=6, path=YAML_PATH, before="x: 1\n", after="x: 1  # one\n"),
            # A deleted file: every setting is removed.
            FileVersions(pr_number=7, path=PY_PATH, status="removed", before="X = 1\n"),
        ],
    )
    assert [(d.pr_number, d.comparable, d.changes) for d in diffs] == [
        (3, False, []),
        (4, False, []),
        (5, True, [change("x", None, "1")]),
        (6, True, []),
        (7, True, [change("X", "1", None)]),
    ]


def test_a_yaml_alias_bomb_is_not_comparable() -> None:
    # Each level repeats the previous one ten times: 10**9 leaves from a 1 KB file.
    levels = ["a: &a [x, x, x, x, x, x, x, x, x, x]"]
    for n in range(1, 9):
        levels.append(
            f"{chr(97 + n)}: &{chr(97 + n)} [" + ", ".join([f"*{chr(96 + n)}"] * 10) + "]"
        )
    bomb = "\n".join(levels) + "\n"
    assert compare_config(YAML_PATH, PPO_TRAINER, bomb) is None


def test_several_yaml_documents_are_told_apart() -> None:
    before = "name: a\n---\nname: b\n"
    assert compare_config(YAML_PATH, before, "name: a\n---\nname: c\n") == [
        change("[1].name", "b", "c")
    ]


def test_config_files_are_the_edited_user_facing_ones() -> None:
    pr = with_statuses(
        make_pr(
            5,
            files=[
                (YAML_PATH, 1, 1),
                ("verl/trainer/config/new_option.yaml", 5, 0),
                ("verl/trainer/config/old_option.yaml", 0, 5),
                ("verl/trainer/config/moved.yaml", 0, 0),
                ("verl/trainer/config/only_added_lines.yaml", 3, 0),
                ("tests/e2e/nightly/configs/Qwen3-32B.yaml", 1, 1),
                (".github/workflows/configs/nightly_config.yaml", 1, 1),
                ("verl/trainer/main_ppo.py", 1, 1),
                # Settings modules by convention (vllm-ascend, tilelang, LLaMA-Factory).
                ("vllm_ascend/ascend_config.py", 2, 1),
                ("vllm_ascend/envs.py", 1, 1),
                ("tilelang/env.py", 1, 1),
                ("src/llamafactory/hparams/model_args.py", 1, 1),
                ("vllm_ascend/quantization/fp8_config.py", 1, 1),
                ("vllm_ascend/ops/fused_moe/moe_runtime_args.py", 0, 40),
            ],
        ),
        {
            "verl/trainer/config/new_option.yaml": "added",
            "verl/trainer/config/old_option.yaml": "removed",
            "vllm_ascend/ops/fused_moe/moe_runtime_args.py": "removed",
            "verl/trainer/config/moved.yaml": "renamed",
        },
    )
    chosen = config_files(pr, ScoringConfig())
    # A file that only gains lines can still change a list such as Hydra's `defaults`; a new
    # file shows where a removed setting moved to; a deleted Python module's settings are gone
    # unless they moved (slime #1664 deleted the FSDP backend's arguments.py).
    assert [f.path for f in chosen] == [
        YAML_PATH,
        "verl/trainer/config/new_option.yaml",
        "verl/trainer/config/only_added_lines.yaml",
        "vllm_ascend/ascend_config.py",
        "vllm_ascend/envs.py",
        "tilelang/env.py",
        "src/llamafactory/hparams/model_args.py",
        "vllm_ascend/ops/fused_moe/moe_runtime_args.py",
    ]
    # Users choose YAML configs by name; a Python module is the code's (vllm-ascend #13888).
    assert deleted_config_files(pr, ScoringConfig()) == ["verl/trainer/config/old_option.yaml"]


def test_python_settings_are_fields_constants_and_environment_defaults() -> None:
    # vllm-ascend's envs.py keeps its variables in one mapping (#5952 turned MLAPO on); enum
    # members, loggers, type aliases and computed values are no settings (LLaMA-Factory #9613,
    # #9677, tilelang #1038).
    before = """\
import logging
import os
from enum import Enum

from pydantic import BaseModel, Field

logger = logging.getLogger(__name__)
SITE_PACKAGES = site.getsitepackages()
PluginArgument = Optional[Union[PluginConfig, dict, str]]
MAX_RETRIES = 3
VERSION = "0.9.2.dev0"
MIN_CANN_VERSION = "8.0"

env_variables = {
    "VLLM_ASCEND_ENABLE_MLAPO": lambda: bool(int(os.getenv("VLLM_ASCEND_ENABLE_MLAPO", "0"))),
    "VLLM_ASCEND_TRACE": lambda: os.environ.get("VLLM_ASCEND_TRACE", "off"),
}


class AutoClass(str, Enum):
    CAUSALLM = "AutoModelForCausalLM"


class ModelArguments(BaseModel):
    cutoff_len: int = Field(2048, description="Tokens kept.")
    template: str = Field(default="default", description="The chat template.")
    adapters: list[str] = Field(default_factory=list)
"""
    after = (
        before.replace("logging.getLogger(__name__)", 'get_logger("prhub")')
        .replace("Optional[Union[PluginConfig, dict, str]]", "PluginConfig | dict | str | None")
        .replace('"VLLM_ASCEND_ENABLE_MLAPO", "0"', '"VLLM_ASCEND_ENABLE_MLAPO", "1"')
        .replace(
            '    "VLLM_ASCEND_TRACE"',
            '    "VLLM_ASCEND_NEW": lambda: os.getenv("VLLM_ASCEND_NEW", ""),\n'
            '    "VLLM_ASCEND_TRACE"',
        )
        .replace(
            'CAUSALLM = "AutoModelForCausalLM"',
            'CAUSALLM = "AutoModelForCausalLM"\n    OTHER = "AutoModel"',
        )
        .replace('Field(2048, description="Tokens kept.")', 'Field(4096, description="Kept.")')
        .replace('description="The chat template."', 'description="Which template."')
        .replace("Field(default_factory=list)", "Field(default_factory=lambda: [])")
        .replace("MAX_RETRIES = 3", "MAX_RETRIES = 5")
        # A release's number is no setting (LLaMA-Factory #7242 and each release after it).
        .replace('VERSION = "0.9.2.dev0"', 'VERSION = "0.9.2"')
        .replace('MIN_CANN_VERSION = "8.0"', 'MIN_CANN_VERSION = "8.1"')
    )
    assert compare_config("vllm_ascend/config/envs.py", before, after) == [
        change("MAX_RETRIES", "3", "5"),
        change("ModelArguments.cutoff_len", "2048", "4096"),
        change("env_variables[VLLM_ASCEND_ENABLE_MLAPO]", "'0'", "'1'"),
        change("env_variables[VLLM_ASCEND_NEW]", None, "''"),
    ]


def test_a_module_constant_holding_a_document_is_no_setting() -> None:
    # vllm-ascend #12774 grew profiling_config.py's symbol list (a YAML document in a string,
    # later an f-string) to 375 lines; the report said it changed its default.
    before = '''\
SERVICE_PROFILING_SYMBOLS_YAML = """
# ===== Batch / Scheduler =====
- symbol: vllm.v1.core.sched.scheduler:Scheduler.schedule
"""
PROFILING_LEVEL = "basic"
SEPARATOR = "\\n"
PROMPT = f"Q: {QUESTION}\\nA:"
'''
    after = (
        before.replace('= """', '= f"""')
        .replace("=====\n", "=====\n- symbol: {ENTRY}\n")
        .replace('"basic"', '"full"')
        .replace('"\\n"', '"\\n\\n"')
        .replace("{QUESTION}", "{Q}")
    )
    # A one-line string that holds a newline escape is a setting like any other.
    assert compare_config("vllm_ascend/config/profiling_config.py", before, after) == [
        change("PROFILING_LEVEL", "'basic'", "'full'"),
        change("PROMPT", "f'Q: {QUESTION}\\nA:'", "f'Q: {Q}\\nA:'"),
        change("SEPARATOR", "'\\n'", "'\\n\\n'"),
    ]


def test_defaults_read_in_init_from_a_mapping_are_settings() -> None:
    # vllm-ascend's AscendConfig reads its options from `additional_config` in __init__
    # (#6686 turned CPU binding on by default).
    before = """\
class AscendConfig:
    def __init__(self, vllm_config):
        additional_config = vllm_config.additional_config or {}
        self.enable_cpu_binding = additional_config.get("enable_cpu_binding", False)
        self.smooth_factor = float(additional_config.get("smooth_factor", 0.8))
        self.trace = os.getenv("VLLM_ASCEND_TRACE", "0") == "1"
        self.model_config = vllm_config.model_config
        self._cache = {}
"""
    after = before.replace('"enable_cpu_binding", False', '"enable_cpu_binding", True')
    assert compare_config("vllm_ascend/ascend_config.py", before, after) == [
        change("AscendConfig.enable_cpu_binding", "False", "True")
    ]
    unchanged = before.replace("or {}", "if vllm_config else {}")
    assert compare_config("vllm_ascend/ascend_config.py", before, unchanged) == []
    # #5296: a flag now read through bool() with False for 0 keeps its default; an option read
    # into a local name is the key users write, here renamed.
    flags = before + (
        '        self.exponential = additional_config.get("exponential", 0)\n'
        '        path = additional_config.get("dump_config", None)\n'
        "        self.dump = DumpConfig(path)\n"
    )
    renamed = flags.replace(
        'additional_config.get("exponential", 0)',
        'bool(additional_config.get("exponential", False))',
    ).replace(
        '        path = additional_config.get("dump_config", None)\n'
        "        self.dump = DumpConfig(path)\n",
        '        self.dump_config_path = additional_config.get("dump_config_path", None)\n',
    )
    assert compare_config("vllm_ascend/ascend_config.py", flags, renamed) == [
        change("AscendConfig.dump_config", "None", None),
        change("AscendConfig.dump_config_path", None, "None"),
    ]
    # #6442 handed part of the reading to a helper method: no setting changed.
    helper = flags.replace(
        '        path = additional_config.get("dump_config", None)\n'
        "        self.dump = DumpConfig(path)\n",
        "        self._read_dump(additional_config)\n\n"
        "    def _read_dump(self, additional_config):\n"
        '        path = additional_config.get("dump_config", None)\n'
        "        self.dump = DumpConfig(path)\n",
    )
    assert compare_config("vllm_ascend/ascend_config.py", flags, helper) == []


def test_nested_python_mappings_are_settings_and_numbers_compare_as_numbers() -> None:
    # vllm-ascend #7357 wrote `1` as `1.0` in a nested mapping of prefetch ratios.
    before = """\
class WeightPrefetchConfig:
    prefetch_ratio: dict = {"attn": {"qkv": 1.0}, "mlp": {"gate_up": 1, "down": 1.0}}
"""
    after = before.replace('"gate_up": 1,', '"gate_up": 1.0,').replace('"qkv": 1.0', '"qkv": 0.5')
    assert compare_config("vllm_ascend/ascend_config.py", before, after) == [
        change("WeightPrefetchConfig.prefetch_ratio[attn][qkv]", "1.0", "0.5")
    ]


SLIME_ARGUMENTS = "slime/utils/arguments.py"
COMMAND_LINE = """\
import argparse
import os


def reset_arg(parser, name, **kwargs):
    parser.add_argument(name, **kwargs)


def add_slime_arguments(parser):
    parser.add_argument("--actor-num-nodes", type=int, default=1, help="Nodes of the actor")
    parser.add_argument("--train-memory-margin-bytes", type=int, default=1024**3)
    parser.add_argument("--colocate", action="store_true")
    parser.add_argument("-m", "--hf-checkpoint", required=True)
    group = parser.add_argument_group("teacher")
    group.add_argument("--teacher-port", default=int(os.getenv("TEACHER_PORT", "7999")))
    group.add_argument("--sglang-port", default=ServerArgs.port)
    reset_arg(parser, "--lr", type=float, default=1e-6)
    return parser
"""


def test_command_line_options_are_settings() -> None:
    # slime #2249 removed `--train-memory-margin-bytes`; launch scripts passing it now fail. A
    # default that code computes (`ServerArgs.port`) is only known to be there.
    after = (
        COMMAND_LINE.replace(
            '    parser.add_argument("--train-memory-margin-bytes", type=int, default=1024**3)\n',
            "",
        )
        .replace("default=1, help", "default=2, help")
        .replace('"--colocate", action="store_true"', '"--colocate", action="store_false"')
        .replace('"7999"', '"8000"')
        .replace("default=ServerArgs.port", "default=ServerArgs.port + 1")
        .replace("default=1e-6)", "default=1e-5)")
        .replace(
            "    return parser",
            '    parser.add_argument("--new-flag", default="x")\n    return parser',
        )
    )
    assert compare_config(SLIME_ARGUMENTS, COMMAND_LINE, after) == [
        change("--actor-num-nodes", "1", "2"),
        change("--colocate", "False", "True"),
        change("--lr", "1e-06", "1e-05"),
        change("--new-flag", None, "'x'"),
        change("--teacher-port", "'7999'", "'8000'"),
        change("--train-memory-margin-bytes", "1024 ** 3", None),
    ]
    # An option that had to be given now has argparse's None.
    optional = COMMAND_LINE.replace("required=True", "default=None")
    assert compare_config(SLIME_ARGUMENTS, COMMAND_LINE, optional) == [
        change("--hf-checkpoint", "required", "None")
    ]
    # slime #1205 moved options into its `reset_arg` helper: none was removed.
    helper = COMMAND_LINE.replace(
        'parser.add_argument("--actor-num-nodes",', 'reset_arg(parser, "--actor-num-nodes",'
    )
    assert compare_config(SLIME_ARGUMENTS, COMMAND_LINE, helper) == []


def test_a_removed_command_line_option_is_flagged() -> None:
    after = COMMAND_LINE.replace(
        '    parser.add_argument("--train-memory-margin-bytes", type=int, default=1024**3)\n', ""
    )
    pr = make_pr(2249, "Remove --train-memory-margin-bytes", files=[(SLIME_ARGUMENTS, 0, 1)])
    assert [f.path for f in compared_files(pr, ScoringConfig())] == [SLIME_ARGUMENTS]
    diffs = config_file_diffs(
        "THUDM/slime",
        [FileVersions(pr_number=2249, path=SLIME_ARGUMENTS, before=COMMAND_LINE, after=after)],
    )
    flags = flag_risks([pr], {}, ReviewData(available=False), ScoringConfig(), {}, diffs)
    assert [(f.risk, f.detail) for f in flags] == [
        ("config_default_change", "removes settings: --train-memory-margin-bytes")
    ]


WORKFLOW = ".github/workflows/pr-test.yml"
PR_TEST = """\
name: PR Test
on:
  pull_request:
    branches: [main]
jobs:
  cpu-unittest:
    runs-on: ubuntu-latest
    strategy:
      matrix:
        info: [{"num_gpus": 0, "test_file": "test_dp_schedule.py"},
               {"num_gpus": 0, "test_file": "test_rm_f1.py"}]
    steps:
      - uses: actions/checkout@v4
      - name: Run the test
        run: pytest tests/${{ matrix.info.test_file }}
"""


def keeps_existing(before: str, after: str, path: str = WORKFLOW) -> bool:
    (diff,) = config_file_diffs(
        "acme/widgets", [FileVersions(pr_number=1, path=path, before=before, after=after)]
    )
    assert diff.comparable
    return diff.keeps_existing


def test_a_workflow_that_only_gains_jobs_and_entries_keeps_what_it_had() -> None:
    # slime #2067 registered its new test in the matrix, between two that were there.
    registered = PR_TEST.replace(
        '{"num_gpus": 0, "test_file": "test_rm_f1.py"}',
        '{"num_gpus": 0, "test_file": "test_cispo_loss.py"},\n'
        '               {"num_gpus": 0, "test_file": "test_rm_f1.py"}',
    )
    assert compare_config(WORKFLOW, PR_TEST, registered) == [
        change("jobs.cpu-unittest.strategy.matrix.info[1].num_gpus", None, "0"),
        change("jobs.cpu-unittest.strategy.matrix.info[1].test_file", None, "test_cispo_loss.py"),
    ]
    assert keeps_existing(PR_TEST, registered)
    new_step = PR_TEST + "      - name: Run the new test\n        run: pytest tests/new.py\n"
    assert keeps_existing(PR_TEST, new_step)
    new_job = PR_TEST + "  lint:\n    runs-on: ubuntu-latest\n    steps:\n      - run: ruff .\n"
    assert keeps_existing(PR_TEST, new_job)
    # More branches, paths or event types to run on: every run there was still happens.
    branches = PR_TEST.replace("branches: [main]", "branches: [main, release]")
    assert keeps_existing(PR_TEST, branches)
    paths = PR_TEST.replace("branches: [main]", "branches: [main]\n    paths: ['**/*.py']")
    assert keeps_existing(paths, paths.replace("['**/*.py']", "['**/*.py', mypy.ini]"))
    commented = PR_TEST.replace("jobs:\n", "# One job per kind of runner.\njobs:\n")
    assert commented != PR_TEST and keeps_existing(PR_TEST, commented)  # no setting changed
    (new_file,) = config_file_diffs(
        "acme/widgets", [FileVersions(pr_number=1, path=WORKFLOW, status="added", after=PR_TEST)]
    )
    assert new_file.keeps_existing


def test_a_workflow_whose_jobs_run_differently_changed_what_it_had() -> None:
    # A step given a condition, a job its environment, a trigger a branch less or a filter
    # where it had none or a path it excludes, a test dropped.
    guarded = PR_TEST.replace(
        "        run: pytest", "        if: github.event_name == 'push'\n        run: pytest"
    )
    with_env = PR_TEST.replace(
        "    runs-on: ubuntu-latest\n", "    runs-on: ubuntu-latest\n    env:\n      X: '1'\n"
    )
    branches = PR_TEST.replace("branches: [main]", "branches: [release]")
    filtered = PR_TEST.replace("branches: [main]", "branches: [main]\n    paths: ['**/*.py']")
    excluded = filtered.replace("['**/*.py']", "['**/*.py', '!docs/**']")
    dropped = PR_TEST.replace(',\n               {"num_gpus": 0, "test_file": "test_rm_f1.py"}', "")
    runner = PR_TEST.replace("runs-on: ubuntu-latest", "runs-on: self-hosted")
    concurrency = PR_TEST + "concurrency: {group: pr, cancel-in-progress: true}\n"
    # verl #2831 prepared a dataset before the tests ran: a step before the job's last.
    prepared = PR_TEST.replace(
        "      - name: Run the test\n",
        "      - name: Prepare gsm8k\n        run: python prepare.py\n      - name: Run the test\n",
    )
    for after in (guarded, with_env, branches, filtered, dropped, runner, concurrency, prepared):
        assert not keeps_existing(PR_TEST, after), after
    assert not keeps_existing(filtered, excluded)
    # Read as GitHub reads it: `on` names the triggers (YAML 1.1 reads it as true).
    assert compare_config(WORKFLOW, PR_TEST, branches) == [
        change("on.pull_request.branches", '["main"]', '["release"]')
    ]
    assert compare_config(YAML_PATH, "on: yes\n", "on: no\n") == [change("True", "true", "false")]
    # Steps that all have names are matched by name, and their order still counts: tilelang
    # #1456 moved clang-tidy after the install, which changes no setting.
    checkout = "      - name: Check out\n        uses: actions/checkout@v4\n"
    run = "      - name: Run the test\n        run: pytest tests/${{ matrix.info.test_file }}\n"
    named = PR_TEST.replace("      - uses: actions/checkout@v4\n", checkout)
    moved = named.replace(checkout + run, run + checkout)
    assert moved != named and compare_config(WORKFLOW, named, moved) == []
    assert not keeps_existing(named, moved)
    assert keeps_existing(
        named, named + "      - name: Run the new test\n        run: pytest new.py\n"
    )
    # A comparison that failed says nothing either way.
    (unread,) = config_file_diffs(
        "acme/widgets", [FileVersions(pr_number=1, path=WORKFLOW, before=None, after=PR_TEST)]
    )
    assert not unread.comparable and not unread.keeps_existing


TEST_CONFIG = """\
- name: eplb
  source_file_dependencies: [vllm_ascend/eplb]
  tests: [tests/ut/eplb, tests/e2e/test_qwen3_eplb.py]
---
estimated_times:
  tests/e2e/test_qwen3_eplb.py: 1200
"""


def test_ci_data_that_only_gains_keys_and_items_keeps_what_it_had() -> None:
    # vllm-ascend's list of test groups, the sources that trigger each, and their run times:
    # #12804 added a test to a group, its source and its time.
    path = ".github/workflows/scripts/test_config.yaml"

    def kept(after: str) -> bool:
        return keeps_existing(TEST_CONFIG, after, path)

    registered = (
        TEST_CONFIG.replace("[vllm_ascend/eplb]", "[vllm_ascend/eplb, vllm_ascend/comm.py]")
        .replace("test_qwen3_eplb.py]", "test_qwen3_eplb.py, tests/ut/test_comm.py]")
        .replace("1200\n", "1200\n  tests/ut/test_comm.py: 60\n")
    )
    assert kept(registered)
    assert not kept(TEST_CONFIG.replace("1200", "1500"))  # a time changed
    assert not kept(TEST_CONFIG.replace("tests/ut/eplb, ", ""))  # a test dropped
    reordered = TEST_CONFIG.replace(
        "[tests/ut/eplb, tests/e2e/test_qwen3_eplb.py]",
        "[tests/e2e/test_qwen3_eplb.py, tests/ut/eplb]",
    )
    assert not kept(reordered)


ASCEND_CONFIG = "vllm_ascend/ascend_config.py"
SPEC_CONFIG = """\
TORCHAIR_MODEL_LIST = ["deepseek", "pangu"]


class DynamicSpecConfig:
    SUPPORTED_METHODS = ("dspark",)
    methods: tuple = ("dspark",)
"""


def test_a_python_constant_that_only_gained_items_changes_no_default() -> None:
    # vllm-ascend #13819 added `dflash` to the supported methods, #2162 `kimi_k2` to the
    # TorchAir models: lists of what the code supports grew.
    grown = SPEC_CONFIG.replace('("dspark",)\n    methods', '("dspark", "dflash")\n    methods')
    grown = grown.replace('"pangu"]', '"pangu", "kimi_k2"]')
    assert keeps_existing(SPEC_CONFIG, grown, ASCEND_CONFIG)
    pr = make_pr(13819, files=[(ASCEND_CONFIG, 2, 2)])
    flags = flag_risks(
        [pr], {}, ReviewData(available=False), ScoringConfig(), {}, spec_config_diffs(grown)
    )
    assert flags == []
    # A constant that lost or reordered items, and a setting users run with that grew, still
    # change defaults (verl #1451 made the SFT trainer log to wandb as well).
    lost = SPEC_CONFIG.replace('["deepseek", "pangu"]', '["deepseek"]')
    reordered = SPEC_CONFIG.replace('["deepseek", "pangu"]', '["pangu", "deepseek"]')
    setting = SPEC_CONFIG.replace('tuple = ("dspark",)', 'tuple = ("dspark", "x")')
    assert not keeps_existing(SPEC_CONFIG, lost, ASCEND_CONFIG)
    assert not keeps_existing(SPEC_CONFIG, reordered, ASCEND_CONFIG)
    for after in (lost, reordered, setting):
        [flag] = flag_risks(
            [pr], {}, ReviewData(available=False), ScoringConfig(), {}, spec_config_diffs(after)
        )
        assert flag.detail.startswith("changes defaults: ")


def spec_config_diffs(after: str) -> list[ConfigFileDiff]:
    return config_file_diffs(
        "vllm-project/vllm-ascend",
        [FileVersions(pr_number=13819, path=ASCEND_CONFIG, before=SPEC_CONFIG, after=after)],
    )


def test_a_grown_list_in_yaml_is_still_a_changed_default() -> None:
    sft = "verl/trainer/config/sft_trainer.yaml"
    before = 'trainer:\n  logger: ["console"]\n'
    after = 'trainer:\n  logger: ["console", "wandb"]\n'
    assert keeps_existing(before, after, sft)  # JSON as before: the file gained an item
    pr = make_pr(1451, files=[(sft, 1, 1)])
    versions = [FileVersions(pr_number=1451, path=sft, before=before, after=after)]
    compared = config_file_diffs("verl-project/verl", versions)
    [flag] = flag_risks([pr], {}, ReviewData(available=False), ScoringConfig(), {}, compared)
    assert flag.detail == 'changes defaults: trainer.logger ["console"] → ["console", "wandb"]'


def test_ci_workflows_are_compared_beside_configs_and_manifests() -> None:
    pr = make_pr(
        7,
        files=[
            (WORKFLOW, 1, 0),
            (".github/workflows/pr-test.yml.j2", 1, 0),
            (".github/workflows/scripts/test_config.yaml", 2, 0),
            (".github/workflows/README.md", 1, 0),
            ("requirements.txt", 1, 1),
        ],
    )
    assert [f.path for f in compared_files(pr, ScoringConfig())] == [
        "requirements.txt",
        WORKFLOW,
        ".github/workflows/scripts/test_config.yaml",
    ]
