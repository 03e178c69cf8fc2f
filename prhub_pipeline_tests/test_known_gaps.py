"""Work a PR's author leaves for later: what counts, what does not, and when it is taken up.

The descriptions are modelled on real verl and vllm-ascend PRs (numbers in the comments).
"""

from __future__ import annotations

from datetime import timedelta

import pytest

from prhub_pipeline.modelling.scoring.known_gaps import deferrals, followed_up_by, stated_gaps
from prhub_pipeline.records import (
    PrComment,
    PullRequest,
    ReviewData,
    ReviewThread,
    ThreadComment,
)
from prhub_pipeline_tests.test_importance import MERGED, REPO, make_pr
from prhub_pipeline_tests.test_risks import risks_of

TEMPLATE_TAIL = """
### Checklist Before Submitting

- [ ] Add unit tests, or explain in a follow-up PR why they are not needed.
"""


@pytest.mark.parametrize(
    ("body", "gaps"),
    [
        (  # verl #6150: the gap is one sentence among others
            "### What does this PR do?\n\nHonor `param_dtype` in autocast. Scaler integration"
            " is tracked for a follow-up PR.\n" + TEMPLATE_TAIL,
            ["Scaler integration is tracked for a follow-up PR."],
        ),
        (  # verl #6091, hard-wrapped
            "Split large weights into chunks.\n\nWhile the peak memory is still bounded by\n"
            "`max_weight_size`, we will address it in future PR.",
            [
                "While the peak memory is still bounded by `max_weight_size`, we will address it"
                " in future PR."
            ],
        ),
        (  # verl #5057: a TODO heading's items
            "## Summary\n\nDynamic CP.\n\n## TODO After Merge\n\n- Publish a best-practice guide"
            " for RL training with Dynamic CP.\n- ~~Benchmark on 8 GPUs~~ DONE\n",
            ["Publish a best-practice guide for RL training with Dynamic CP."],
        ),
        (  # verl #4123: a lead-in sentence, then the list
            "Update the Ascend images.\n\nTODOs in next PR:\n\n1. Start the docker build"
            " workflow.\n2. Update the e2e image address.\n\nTested locally.",
            ["Start the docker build workflow.", "Update the e2e image address."],
        ),
        (  # vllm-ascend #9849: the bold label after the TODO list heads its test environment
            "Fix the kernel.\n\n### TODO list\n1. Add testcase for this triton kernel.\n\n"
            "**Environment**\n\n**Ascend 950 (A5)**\n- Model: Qwen3-32B\n- use triton\n",
            ["Add testcase for this triton kernel."],
        ),
        (  # verl #222: a label after the TODO items heads the references
            "**TODO:**\n- Support SFT resume in the next PR\n- Support uploader\n\n"
            "**Relevant issue:**\n- https://github.com/volcengine/verl/issues/76\n",
            ["Support SFT resume in the next PR", "Support uploader"],
        ),
        (  # a bold label instead of a heading
            "Adds the converter.\n\n**Known limitations:**\n\n* MoE models are not converted.",
            ["MoE models are not converted."],
        ),
        ("支持 NPU 上的 MXFP8。\n\n多机场景后续PR支持。", ["多机场景后续PR支持。"]),
        (  # vllm-ascend #2047: a TODO sentence, then the bot's version lines
            "Cleanup V0 code.\n\nTODO: enable v1 e2e test.\n\n- vLLM version: v0.10.0\n"
            "- vLLM main: https://github.com/vllm-project/vllm/commit/2cc5711",
            ["TODO: enable v1 e2e test."],
        ),
        (  # a TODO of the author's own, about code it quotes
            "Add the owners file.\n\nTODO: resolve the `TODO(ivankobzarev)` comments in"
            " `graph_trainer`.",
            ["TODO: resolve the `TODO(ivankobzarev)` comments in `graph_trainer`."],
        ),
        (  # verl #1138: a TODO heading's unchecked item is open, its checked ones are done,
            # and a checked item's hard-wrapped line is no item of its own
            "### Summary\nAsync rollout.\n\n### TODO\n- [x] AsyncLLM: initialization\n"
            "- [x] RayPPOTrainer integration: replace `generate_sequences` to http\n"
            "call `/v1/chat/completions`\n- [ ] Add document\n",
            ["Add document"],
        ),
        (  # verl #687: an unchecked item's wrapped lines are joined
            "Megatron checkpoints.\n\n# TODOs\n\n- [ ] Support Megatron dist checkpointing"
            " mechanism, now use\ntorch.save/load to store/restore model weights.\n"
            "- [x] Quick: Also store hf format model.\n",
            [
                "Support Megatron dist checkpointing mechanism, now use torch.save/load to"
                " store/restore model weights."
            ],
        ),
        (  # vllm-ascend #2145 and verl #3522: a label line leads the unchecked items
            "### What this PR does / why we need it?\nSupport MTP with:\n- [x] TorchAir\n\n"
            "Known issues：\n- [ ] Not support V1 Scheduler (chunked prefill), will be supported"
            " in a\nfew weeks\n\nTODO:\n- [ ] make a new docker image with latest mcore\n",
            [
                "Not support V1 Scheduler (chunked prefill), will be supported in a few weeks",
                "make a new docker image with latest mcore",
            ],
        ),
        (  # vllm-ascend #4779: a TODO label's list ends at the bot's lines and the next heading
            "Masks.\n\nTodo:\n\n- remove spec_attn_mask\n- vLLM version: v0.12.0\n\n"
            "### How was this patch tested?\n\n1. CI passed with existing tests.",
            ["remove spec_attn_mask"],
        ),
        (  # vllm-ascend #13672: under a follow-up heading, the lead-in to the plan says what
            # is left, not the sentence on what this PR does; a label ("TODOs include:") does not
            "### Follow-up Plan\n\nThis PR only centralizes hardware identity. The remaining"
            " migration will be completed incrementally:\n\n1. **Introduce hardware profiles**"
            "\n\n### TODO\n\nSome are open. TODOs include:\n\n- `verl/utils` docs",
            [
                "The remaining migration will be completed incrementally.",
                "Introduce hardware profiles",
                "Some are open.",
            ],
        ),
    ],
)
def test_the_authors_own_words_about_work_left_open(body: str, gaps: list[str]) -> None:
    assert stated_gaps(body) == gaps


@pytest.mark.parametrize(
    "body",
    [
        "Follow-up to #6334 per @wuxibin89's review comment.",  # verl #6356: this is the follow-up
        "This is a follow-up PR to https://github.com/volcengine/verl/pull/3362",
        "Follow up https://github.com/verl-project/verl/pull/6710, use the new client.",
        "The crash was fixed in a separate PR already.",
        "Not affected by this bug; happy to file a follow-up if needed.",  # verl #6268: an offer
        "pre-commit automatically fixed part of the code format in another PR #1331",
        "This is a problem from another PR.",  # vllm-ascend #3892
        # vllm-ascend #6587: a check that will run, not work left
        "The correctness will be verified by `actionlint` running in CI on subsequent pull"
        " requests.",
        "This PR fixes KV cache binding in the Qwen3 Next MTP patch.",  # a model's name
        # vllm-ascend #13672: what this PR readies for later ones, not what it leaves
        "This establishes a single source of truth for hardware identity and\nprepares for"
        " capability-oriented hardware profiles in subsequent PRs.",
        "This lays the groundwork for FP8 rollout in future PRs.",
        # verl #7157: results shown later on this PR, no work left open
        "The submitter will add the training-result screenshot in a follow-up PR comment.",
        "Loss curves will be posted in a follow-up comment.",
        "The following changes are included:\n\n- a\n- b",
        TEMPLATE_TAIL,  # the template's checklist is not the author's
        "```python\n# TODO: remove in the next PR\n```",  # code is not prose
        # torchtitan #3487: nor is code quoted in a sentence
        "`IvanKobzarev` is the confirmed GitHub handle (it matches the existing"
        " `TODO(ivankobzarev)` comments).",
        # TransformerEngine #3116: a note in the code for later readers, no work left open
        "Drop it from the ``del`` and leave a NOTE so future cleanups don't reintroduce the bug.",
    ],
)
def test_words_about_the_past_offers_and_this_prs_own_place_are_no_gap(body: str) -> None:
    assert stated_gaps(body) == []


def test_a_pr_keeps_its_first_three_gaps_each_shortened() -> None:
    body = "\n\n".join(f"Item {i} will be handled in a follow-up PR." for i in range(5))
    assert stated_gaps(body) == [f"Item {i} will be handled in a follow-up PR." for i in range(3)]
    [long] = stated_gaps("We will address " + "the very long tail " * 20 + "in a future PR.")
    assert len(long) <= 160 and long.endswith("…")


def test_a_gap_in_the_description_is_a_low_risk_flag_quoting_it() -> None:
    pr = make_pr(6091, body="Chunks weights. We will address peak memory in a future PR.")
    [flag] = [f for f in risks_of([pr]) if f.risk == "known_gap"]
    assert flag.severity == "low"
    assert flag.quotes == ["We will address peak memory in a future PR."]
    assert (
        flag.detail
        == 'the author leaves work for later: "We will address peak memory in a future PR."'
    )
    assert not [f for f in risks_of([make_pr(1, body="Chunks weights.")]) if f.risk == "known_gap"]


def test_the_author_deferring_a_reviewers_point_is_a_gap_with_the_ask() -> None:
    """The reference report's #6076: the author admits ray.get blocks the event loop and
    promises a fix in the next PR."""
    pr = make_pr(6076, body="Adds elastic replicas.", author="ArronHZG")
    asked = ThreadComment(
        comment_id="c1", author="wuxibin89", body="ray.get blocks the event loop here."
    )
    reply = ThreadComment(
        comment_id="c2",
        author="ArronHZG",
        is_pr_author=True,
        body="Good catch. I'll fix it in the next PR, this one is already large.",
    )
    other = ThreadComment(
        comment_id="c3", author="someone", body="We could do this in a follow-up PR."
    )
    threads = [
        ReviewThread(
            repo=REPO,
            pr_number=6076,
            thread_id=f"t{i}",
            path="verl/a.py",
            line=541,
            is_resolved=True,
            comments=comments,
        )
        for i, comments in enumerate([[asked, reply], [other]])
    ]
    conversation = PrComment(
        repo=REPO,
        pr_number=6076,
        comment_id="k1",
        author="ArronHZG",
        body="Docs will follow in a separate PR.",
    )
    reviews = ReviewData(available=True, threads=threads, comments=[conversation])
    [flag] = [f for f in risks_of([pr], reviews) if f.risk == "known_gap"]
    assert flag.quotes == [
        "I'll fix it in the next PR, this one is already large.",
        "Docs will follow in a separate PR.",
    ]
    assert [(a.reviewer, a.ask) for a in flag.asks] == [
        ("wuxibin89", "ray.get blocks the event loop here.")
    ]
    assert deferrals("Thanks! Done.") == []


def test_a_later_pr_that_says_it_follows_one_up_takes_the_work_up() -> None:
    gap = make_pr(6921, body="Known limitation: VLM is left for a follow-up PR.")
    later = [
        make_pr(
            6937, body="Follow-up to #6921. `initial` now ...", merged_at=MERGED + timedelta(days=3)
        ),
        make_pr(6930, body="Fixes #6921.", merged_at=MERGED + timedelta(days=1)),
        make_pr(6925, body="Follow-up to #69210.", merged_at=MERGED + timedelta(days=1)),
        make_pr(6900, body="Follow-up to #6921.", merged_at=MERGED - timedelta(days=1)),
        make_pr(6940, body="Building on #6921, adds VLM.", merged_at=MERGED + timedelta(days=5)),
    ]
    assert followed_up_by(gap, [gap, *later]) == 6937
    assert followed_up_by(gap, [gap, *later[1:4]]) is None
    assert followed_up_by(gap, later[4:]) == 6940
    following = make_pr(
        3530,
        body="Following https://github.com/volcengine/verl/pull/3456, support DP+EP.",
        merged_at=MERGED + timedelta(days=9),
    )
    assert followed_up_by(make_pr(3456), [following]) == 3530


def test_a_later_pr_built_on_one_takes_the_work_up() -> None:
    gap = make_pr(13672, body="The remaining migration will be done in follow-up PRs.")
    later = MERGED + timedelta(days=2)
    for body in (
        "Depends on #13672.\n\nIntroduces hardware profiles.",  # vllm-ascend #13721
        "This PR is on top of #13672.",  # verl #1397
        "Stacked on https://github.com/vllm-project/vllm-ascend/pull/13672",  # verl #6051
    ):
        assert followed_up_by(gap, [make_pr(13721, body=body, merged_at=later)]) == 13721
    unrelated = make_pr(13730, body="Depends on #136720.", merged_at=later)
    assert followed_up_by(gap, [unrelated]) is None


def test_the_next_part_of_the_authors_series_takes_the_work_up() -> None:
    first = make_pr(13672, "[Refactor][device][1/N] Refactor Ascend hardware discovery")
    later = MERGED + timedelta(days=2)

    def part(number: int, title: str, author: str = "alice") -> list[PullRequest]:
        return [make_pr(number, title, merged_at=later, author=author)]

    second = "[Refactor][Device][2/N] Introduce capability-oriented hardware profiles"
    assert followed_up_by(first, part(13721, second)) == 13721  # vllm-ascend #13721
    assert followed_up_by(first, part(13721, second, author="bob")) is None
    assert followed_up_by(first, part(13722, "[Refactor][Device][3/N] Migrate workers")) is None
    assert followed_up_by(first, part(13723, "[Refactor][Model][2/N] Migrate models")) is None
    assert followed_up_by(first, part(13724, "[Refactor][Device][2/3] Profiles")) is None
