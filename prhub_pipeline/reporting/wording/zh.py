"""The report in Chinese."""

from __future__ import annotations

from prhub_pipeline.modelling.scoring.requirement_edits import RequirementPhrases
from prhub_pipeline.records import PrType, RiskKind
from prhub_pipeline.reporting.wording.core import RiskText, Wording

_RISK_HEADINGS: dict[RiskKind, str] = {
    "revert": "回退",
    "reverted": "被回退的变更",
    "breaking_change": "不兼容变更",
    "unresolved_review": "合并时仍有未解决的评审意见",
    "core_without_tests": "核心路径变更未附测试",
    "tests_disabled": "跳过或停用的测试",
    "no_approval": "未经批准即合并",
    "large_change": "超大变更",
    "cross_cutting": "跨模块变更",
    # The flag covers settings renamed or removed too, not only defaults changed (verl #7374).
    "config_default_change": "配置项变更",
    "dependency_change": "依赖变更",
    "repeated_fix": "再次修复",
    "known_gap": "尚未解决的部分",
    "docker_change": "Docker 镜像变更",
    "ci_change": "CI 流程变更",
}
_TYPES: dict[PrType, str] = {
    "feat": "新功能",
    "fix": "修复",
    "refactor": "重构",
    "perf": "性能",
    "chore": "杂项",
    "doc": "文档",
    "test": "测试",
    "revert": "回退",
    "other": "其他",
}
_WORKS = "变更在各环境与流水线中正常工作：{refs}。"
# Every built-in theme (modelling/tagging/themes.py), so no English heading is left in a
# Chinese report.
_THEMES = {
    "NPU/Ascend": "NPU/昇腾",
    "AMD/ROCm": "AMD/ROCm",
    "Distillation": "蒸馏",
    "MoE": "MoE",
    "Multimodal": "多模态",
    "Async/fully-async": "异步与全异步训练",
    "Agent/tools": "Agent 与工具调用",
    "LoRA": "LoRA",
    "Performance": "性能优化",
    "Docs": "文档",
    "CI/infrastructure": "CI 与基础设施",
    "Docker": "Docker 镜像",
    "Dependencies": "依赖",
}

ZH = Wording(
    lang="zh",
    list_sep="、",
    pair_sep="、",
    last_sep="、",
    clause_sep="；",
    sentence_sep="",
    stop="。",
    more=" 等 {total} 个",
    more_prs=" 等 {total} 个 PR",
    type_names=_TYPES,
    type_counted=_TYPES,
    type_plurals=_TYPES,
    type_count="{name} {n} 个",
    type_count_alone=("{name}", "全部为{name}"),
    impact_names={
        "wrong_result": "结果错误或精度问题",
        "data_loss": "数据丢失",
        "security": "安全问题",
        "oom": "内存溢出",
        "hang": "卡死或死锁",
        "crash": "崩溃或报错",
        "regression": "回归",
        "ignored_setting": "配置不生效",
    },
    risk_headings=_RISK_HEADINGS,
    risk_names=_RISK_HEADINGS,
    pr_risk_names=_RISK_HEADINGS,
    part_labels={
        "type": "类型",
        "breaking": "不兼容",
        "size": "规模",
        "core": "核心路径",
        "breadth": "跨模块",
        "fix_impact": "修复后果",
        "review": "评审",
        "revert": "回退",
        "toolchain": "工具链升级",
    },
    other_parts="其他",
    theme_names=_THEMES,
    theme_told_apart="{name} 相关",
    title="{repo} {year} 年第 {week} 周周报（{start:%m-%d} 至 {end:%m-%d}）",
    span="第 {week} 周，{start:%m-%d} 至 {end:%m-%d}",
    generated="由 prhub-pipeline 根据 PR 数据自动生成",
    source="数据源 {source}",
    calibrated=(
        "重要性按本仓库截至本周最近的 {n} 个 PR 校准（原始分在其中的排位：7.0 即高于其中 70%）"
    ),
    uncalibrated=(
        "本仓库截至本周仅存储了 {n} 个 PR，重要性未按本仓库历史校准，"
        "而按一般仓库的 PR 分布换算（7.0 即高于其中 70%）"
    ),
    with_reviews="含评审数据",
    without_reviews="无评审数据",
    pushed_listed="另有 {n} 个未经 PR 直接推送的提交，列于文末，未作分析",
    titles_only="各 PR 的描述均只有标题",
    titles_only_commit="各 PR 的提交信息均只有标题",
    reverts_pr="回退 #{target}。",  # its own stop: a number ends it, which reads as English
    reverts_pr_titled="回退 #{target}：{title}",
    reverts_pr_because="回退 {undone}：{reason}",
    reverts_pr_which="回退 {undone}：{reason}",
    reverted_titled="#{target}（{title}）",
    repeat="与 #{number} 标题相同（{when}合入，{files}{reverted}）{branch}。",
    repeat_when="{n} 天前",
    repeat_same_day="同日",
    repeat_same_files="改动了相同的文件",
    repeat_some_files="改动了其中 {n} 个文件",
    repeat_reverted="，后被 #{number} 回退",
    repeat_branch="；本 PR 合入 {branch} 分支",
    reland="重新合入了 #{target} 的改动（{day:%m-%d} 被 {revert} 回退）。",
    revert_reason="；回退说明：“{reason}”",
    revert_reason_commit="；回退提交信息：“{reason}”",
    outline_one="{lead}；改动了 {place}。",
    outline_many="{lead}；改动了 {files} 个文件（{lines}），{where}{besides}。",
    outline_lead=("描述没有标题以外的信息", "描述未概述改动内容"),
    outline_lead_commit=("提交信息只有标题", "提交信息未概述改动内容"),
    # Not "改动了 3 个文件（61 行），在 slime/utils/。" (slime's 2026-06-01), a place left hanging.
    outline_in="均在 {places}",
    outline_among="分布在 {n} 个目录，包括 {places}",
    outline_among_listed="分布在至少 {n} 个目录，包括 {places}",
    outline_besides="，另有 {kinds} 改动",
    outline_places_and_support="{lead}；改动了 {places}，另有 {kinds} {files}（{lines}）。",
    file_count="{n} 个文件",
    outline_kinds={
        "test": "测试",
        "doc": "文档",
        "ci": "CI",
        "docker": "Docker 文件",
        "lock": "依赖锁文件",
        "generated": "生成代码",
        "vendored": "第三方代码",
        "data": "数据",
    },
    place_folder="{path}（{files} 个文件，{lines}）",
    place_file={
        "modified": "{path}（{lines}）",
        "added": "{path}（新增，{lines}）",
        "removed": "{path}（删除，{lines}）",
    },
    place_folder_unsized="{path}（{files} 个文件）",
    place_file_unsized={
        "modified": "{path}",
        "added": "{path}（新增）",
        "removed": "{path}（删除）",
    },
    line_count="{n} 行",
    top_folder="根目录",
    no_prs="本周（{span}）没有合并的 PR。",
    overview="本周（{span}）共合并 {n} 个 PR，{key}。按类型分：{types}。",
    released="本周发布：{list}。",
    pushed_summary="另有 {n} 个提交未经 PR 直接推送到分支：列于文末，本报告未作分析。",
    batch_landed=(
        "本周 {total} 个 PR 中有 {n} 个写于 {start} 至 {end}，"
        "于 {landed} 随所在分支的变基（rebase）一并合入：多为此前数周的工作。"
    ),
    batch_landed_all=(
        "本周的 {n} 个 PR 都写于 {start} 至 {end}，于 {landed} 随所在分支的变基（rebase）"
        "一并合入：多为此前数周的工作。"
    ),
    batch_keys_limited="其中重要性达到阈值的 {above} 个只取最高的 {key} 个作为重点 PR，排序照常。",
    batch_day="{day:%m-%d}",
    batch_day_other_year="{day:%Y-%m-%d}",
    release="{name}（{day:%m-%d} 打标签，提交 {sha}）",
    overview_key=(
        "没有重点 PR",
        "为重点 PR",
        "没有重点 PR",
        "其中 1 个为重点 PR",
        "其中 {key} 个为重点 PR",
    ),
    busiest_modules="变更最集中的模块是 {list}",
    busiest_modules_sure="不计分类器把握不足的预测，变更最集中的模块是 {list}",
    module_count="{name}（{n} 个）",
    module_count_guessed=(
        "{name}（{n} 个，其中 {guessed} 个为分类器预测）",
        "{name}（{n} 个，均为分类器预测）",
        "{name}（1 个，为分类器预测）",
    ),
    modules_all_guessed="，均为分类器预测",
    busiest_themes="主题上 {list}",
    busiest_themes_alone="主题上 {list}",
    theme_count="{name} 相关 PR {n} 个{lead}",
    theme_lead="（其中{led}）",
    top_changes="最重要的变更：{list}。",
    top_change="#{number}（{type}，{importance}）{subject}",
    top_change_same_title="（另有同名的 {refs}）",
    fix_impacts="{n} 个修复的标题或描述写明了所修问题的后果：{list}。",
    fix_impact="{impact} {refs}",
    fix_focus="本周 {total} 个修复中，{list}。",
    fix_focus_area="{n} 个涉及 {name}{guessed}",
    fix_focus_all="本周 {total} 个修复全部涉及 {name}{guessed}。",
    fix_focus_guessed=("（其中 {guessed} 个为分类器预测）", "（均为分类器预测）"),
    risk_tally="风险标记：{list}（详见风险观察）。",
    risk_tally_item="{name} {n} 项",
    risk_tally_sep="、",
    summary_without_reviews="本周数据来自不含评审信息的数据源，报告未评估评审过程。",
    review_coverage=(
        "评审：{prs} 个 PR 中 {reviewed} 个经作者以外的人评审{reviewers}{approved}{threads}"
        "{hours}。"
    ),
    review_coverage_threads_only=(
        "评审（数据只含评审讨论，不含提交的评审）："
        "{prs} 个 PR 中 {reviewed} 个有作者以外的人参与讨论{reviewers}{threads}{hours}。"
    ),
    review_coverage_hours="；从创建到合并的中位时长 {hours} 小时",
    review_coverage_approved="，{n} 个获得批准{earlier}",
    review_coverage_earlier="（{share}，此前 {weeks} 周为 {earlier}）",
    review_coverage_reviewers="（评审人 {n} 位）",
    review_coverage_participants="（参与者 {n} 位）",
    review_coverage_threads="；评审讨论 {n} 条{bots}",
    review_coverage_bots="，其中 {n} 条由机器人发起",
    # "均" (all of them) of one thread: "讨论 1 个，均由机器人发起" (verl 2026-05-11, #6334).
    review_coverage_all_bots=("，由机器人发起", "，均由机器人发起"),
    revert_unknown=(
        "{refs} 是一次回退，但无法从标题或描述确定被回退的 PR。",
        "{refs} 是回退，但无法从标题或描述确定被回退的 PR。",
    ),
    revert="#{number} 回退了 #{target}",
    revert_pushed="未经 PR 直接推送的提交 {commit} 回退了 #{target}",
    pushed_reverter="提交 {commit}",
    revert_title="（{title}）",
    revert_also="，同时回退了 {refs}",
    revert_reopened=(
        "；#{target} 曾声明修复 {refs}，回退后该问题{impacts}重新处于未修复状态",
        "；#{target} 曾声明修复 {refs}，回退后这些问题{impacts}重新处于未修复状态",
    ),
    revert_impacts="（{names}）",
    revert_relanded="；#{relanded} {when}重新合入了这项改动",
    revert_relanded_soon="随后",
    revert_relanded_later="在本周之后（{day:%m-%d}）",
    revert_chain="回退链",
    unlabelled="未归类变更",
    unlabelled_beside_places="其他未归类变更",
    place_heading="{place} 下的未归类变更",
    more_heading="其他重点变更",
    more_lead="其余模块、主题与目录的 {n} 个 PR（此处各一两个），{key}。",
    item_label="{label} · ",
    group_intro="本周 {name} 共 {n} 个 PR（{types}），{key}。",
    group_intro_unlabelled="本周未归入任何模块或主题小节的 PR {n} 个（{types}），{key}。",
    group_intro_beside_places=(
        "本周其余未归入任何模块、主题或目录小节的 PR {n} 个（{types}），{key}。"
    ),
    group_intro_place=(
        "本周未归入任何模块或主题小节、代码改动主要在 {place} 的 PR {n} 个（{types}），{key}。"
    ),
    group_intro_part="本周 {name} 共 {total} 个 PR，此处 {n} 个（{types}），{key}。",
    group_key=(
        "均非重点",
        "为重点 PR",
        "其中重点 {key} 个",
        "均为重点 PR",
        "均为重点 PR",
        "非重点 PR",
    ),
    group_see_also="另见：{list}。",
    see_also_unnamed="其他 {n} 个小节",
    appendix="附录",
    item="{type}：{subject}{notes}。{summary}",
    item_untyped="{subject}{notes}。{summary}",
    # The type word stays beside a subject that says it: it reads the English in Chinese.
    types_subject_says=frozenset({"revert"}),
    item_notes="（{notes}）",
    item_note_sep="，",
    item_importance="重要性 {importance}",
    item_impacts="涉及{impacts}",
    item_breaking="不兼容变更",
    others="另有 {n} 个 PR（{types}）：{listed}{more}。",
    others_by_type="另有 {n} 个 PR：{parts}。",
    others_of_type="{types}（{listed}{more}）",
    no_labels="本周没有模块或主题标签。",
    no_previous="上周数据不可用，表中不给出环比变化。",
    week_on_week="本周 {n} 个 PR，上周 {previous} 个（{delta}）。",
    largest_changes="变化最大的是 {list}。",
    largest_change="{name}（{before} → {now}）",
    largest_change_guessed=(
        "{name}（{before} → {now}，其中 {guessed} 个为分类器预测）",
        "{name}（{before} → {now}，均为分类器预测）",
        "{name}（{before} → {now}，为分类器预测）",
    ),
    largest_change_guessed_before=(
        "{name}（{before} → {now}，上周其中 {guessed} 个为分类器预测）",
        "{name}（{before} → {now}，上周的均为分类器预测）",
        "{name}（{before} → {now}，上周的为分类器预测）",
    ),
    faded_labels="以下模块与主题上周有一两个 PR、本周没有，未列入表中：{names}。",
    # Not the passive, English-built "本周被明显多于平时的 PR 改动的代码文件" and "没有 PR 改动它"
    # (slime's 2026-06-01).
    busy_files="本周改动以下代码文件的 PR 明显多于平时：{list}。",
    busy_file="{path}（{refs}；此前 {weeks} 周平均每周 {usual} 个）",
    busy_file_new="{path}（{refs}；此前 {weeks} 周没有 PR 改动过）",
    busy_file_sep="；",
    contributors="本周有 {n} 位作者的 PR 被合并{newcomers}。",
    # Not "（此前收录的 PR 中没有他们的）": a dangling "的", and "他们" of one new author too.
    newcomers="，其中 {k} 位是新作者（此前收录的 PR 中未出现过）：{list}",
    newcomer="{author}（{refs}）",
    more_people=" 等 {total} 位",
    # A sentence with its verb: "本周评审 PR 最多的：carol（3 个 PR）" left "the ones who" hanging.
    busy_reviewers="本周评审 PR 最多的是 {list}。",
    busy_reviewer="{login}（{n} 个 PR）",
    core_testing=(
        "本周改动核心代码 {min_lines} 行以上的 {n} 个 PR 中，{tested} 个同时新增或修改了测试"
        "（{share}）{earlier}。"
    ),
    core_testing_earlier="，此前 {weeks} 周为 {share}（{n} 个中 {tested} 个）",
    predicted=(
        "本周 {total} 个 PR 中有 {n} 个的标题和标签未标注模块{tags}，其模块由分类器预测"
        "（附录中以 * 标出），表中同样计入。"
    ),
    predicted_some=(
        "本周 {total} 个 PR 中有 {n} 个的标题和标签未标注模块{tags}：其中 {guessed} 个的模块由"
        "分类器预测（附录中以 * 标出），表中同样计入；其余 {rest} 个没有模块。"
    ),
    predicted_none=(
        "本周 {total} 个 PR 中有 {n} 个的标题和标签未标注模块{tags}，也没有预测出模块。"
    ),
    predicted_all=(
        "本周唯一的 PR 标题和标签未标注模块{tags}，其模块由分类器预测（附录中以 * 标出）。",
        "本周 {total} 个 PR 的标题和标签均未标注模块{tags}，其模块由分类器预测"
        "（附录中以 * 标出）。",
    ),
    no_area_tags="（{tags} 不算模块）",
    # Not the English "it says what the repository is about" word for word: "不只是文档、CI 等
    # 日常维护的有 1086 个，其中 80% 带有它，它说明的是仓库本身" (vllm-ascend's 2026-08-03).
    subject_theme=(
        "{names} 不作为主题统计：本仓库已存的 PR 中，除文档、CI 等日常维护外共有 {n} 个，其中"
        " {share} 带有该主题，可见它体现的是仓库本身的定位，而非本周的变化。",
        "{names} 不作为主题统计：本仓库已存的 PR 中，除文档、CI 等日常维护外共有 {n} 个，这些"
        "主题各出现在其中至少 {share} 的 PR 中，可见它们体现的是仓库本身的定位，而非本周的变化。",
    ),
    risk_texts={
        "breaking_change": RiskText("{n} 个 PR 带有不兼容变更标记：", "#{number} {subject}", "。"),
        "unresolved_review": RiskText("", "#{number}：{asks}", "。"),
        "core_without_tests": RiskText(
            "{n} 个 PR 修改了核心路径却没有新增或修改任何测试文件：",
            "#{number}（{lines} 行，{path}）",
            "。",
        ),
        "tests_disabled": RiskText(
            "{n} 个 PR 跳过或停用了测试：",
            "#{number} {subject}（{paths}）",
            "。重新启用之前，这些测试原本覆盖的内容无人检查。",
        ),
        "no_approval": RiskText("{refs} 合并时没有任何批准（APPROVED）评审。", "", ""),
        "repeated_fix": RiskText(
            "{n} 个修复沿用了近期一个修复的标题并改动其文件：",
            "#{number}（此前为 #{earlier}）",
            "。前一次修复可能没有彻底解决问题。",
        ),
        "large_change": RiskText(
            "",
            "#{number} 改动 {lines} 行{uncounted}{tests}{deleted}",
            "，评审与回归验证的难度更高。",
        ),
        "cross_cutting": RiskText("", "#{number} 横跨 {module_count} 个模块（{modules}）", "。"),
        "config_default_change": RiskText("", "#{number} {settings}", "。"),
        "dependency_change": RiskText("", "#{number}：{paths}{requirements}", "。"),
        # Under the heading 尚未解决的部分, not "#9155 的作者写明尚未解决的部分：" again
        # (vllm-ascend's 2026-05-11).
        "known_gap": RiskText("", "#{number} 的作者写明：{quotes}{answers}{taken_up}", "。"),
        "docker_change": RiskText("", "#{number}：{paths}", "。"),
        "ci_change": RiskText("", "#{number}：{paths}", "。"),
    },
    risk_more="；另有 {rest} 个 PR",
    ask="{reviewer}{bot}{where} 提出“{ask}”",
    ask_bot="（机器人）",
    ask_where=" 在 {where}",
    settings_changed="改变了默认值：{list}",
    setting_value="{key}（{before} → {after}）",
    setting_in_file="{path} 中的 {key}",
    settings_removed="删除了配置项 {list}",
    settings_renamed="重命名了配置项 {list}",
    setting_renamed="{before} → {after}",
    settings_unknown="修改了 {paths}，其配置项未能比较，默认值可能已改变或配置项已被删除",
    settings_deleted_files="删除了配置文件 {paths}",
    settings_and="，并",
    requirement_changes="（{list}）",
    requirement_sep="；",
    requirements=RequirementPhrases(
        value="{key} {before} → {after}",
        added="新增 {key}{after}",
        removed="移除 {key}{before}",
        moved="将 {project} 从 {source} 移至 {targets}{versions}",
        moved_within="将 {path} 中的 {project} 从 {source} 移至 {targets}{versions}",
        moved_versions="，{before} → {after}",
        main_list="主依赖列表",
        groups=("{groups} 分组", "{groups} 分组"),
        place="{path}（{group}）",
        replaced="{before_key} {before} → {after_key} {after}",
        redeclared="在 {place} 中按其他环境或 extras 重新声明 {project}（{before} → {after} 条）",
        dynamic="将 {path} 的 {field} 改为动态声明（由构建后端读取），不再在其中列出 {n} 个依赖",
        static="{path} 改为直接列出 {n} 个依赖作为 {field}，不再动态声明",
        any_version="任意版本",
        list_sep="、",
        last_sep=" 和 ",
        relock="{path}：{parts}",
        relock_repinned=("更新 {n} 个包的锁定版本", "更新 {n} 个包的锁定版本"),
        relock_added=("新增 {n} 个包", "新增 {n} 个包"),
        relock_removed=("移除 {n} 个包", "移除 {n} 个包"),
        relock_examples="（{examples}）",
        part_sep="，",
    ),
    requirement_chain="合起来看，{path} 中的 {key} {net}（{steps}）。",
    shared_files="其中多个 PR 改动了同一文件：{files}。",
    shared_file="{path}（{n} 个 PR）",
    chain_changed="从 {before} 变为 {after}",
    chain_added="从未列出变为 {after}",
    chain_removed="从 {before} 变为不再列出",
    chain_back="最终回到原来的 {before}",
    chain_no_net="先新增后移除，最终没有变化",
    chain_step_added="#{number} 新增{after}",
    chain_at=" {version}",
    chain_step_removed="#{number} 移除",
    chain_step_changed="#{number} {before} → {after}",
    chain_then="，随后 ",
    quote="“{text}”",
    gap_answers="（回应 {asks}）",
    gap_taken_up="（#{number} 随后跟进）",
    large_in_tests="，其中测试 {n} 行",
    large_uncounted="（不含{kinds}）",
    large_deleted="，另删除 {n} 个文件",
    note_without_reviews="评审数据不可用（数据源不提供评审），未检查未解决的评审意见与批准情况。",
    note_without_core_paths="本仓库未配置核心路径（scoring.core_paths），未检查核心代码变更是否附带测试。",
    note_no_risks="本周数据没有触发任何风险规则。",
    quick_risks="（风险：{list}）",
    quick_review="（评审：{list}）",
    quick_review_approved="{names} 批准",
    quick_review_changes="{names} 要求修改",
    quick_review_by="{names} 评审",
    quick_review_nobody="无作者以外的评审",
    quick_review_threads="讨论 {n} 条{bots}",
    quick_view_top="本周 {key} 个重点 PR 中重要性最高的 {shown} 个；全部 PR 见附录。",
    quick_view_no_key="本周没有 PR 的重要性达到 {threshold}；以下是最高的 {shown} 个。",
    quick_view_no_key_all=(
        "本周唯一的 PR 重要性未达到 {threshold}。",
        "本周 {shown} 个 PR 的重要性均未达到 {threshold}。",
    ),
    follow_ups={
        "refix": "跟进 {reopened}：其修复 #{target} 已被 {reverter} 回退，"
        "需查明回退原因后重新修复，并补充测试。",
        "revert_explained": "按 {reverter} 给出的回退原因（见风险观察）修正 #{target}，"
        "再重新提交并补充相应的测试。",
        "revert": "确认 {reverter} 回退 #{target} 的原因，并决定是否重新提交修正后的版本。",
        "unresolved_review": "逐条确认 {refs} 合并时未解决的评审意见，需要时提交后续 PR。",
        "core_without_tests": "为以下 PR 的核心路径改动补充测试：{refs}。",
        "tests_disabled": (
            "问题修复后重新启用 {refs} 跳过或停用的测试，并用 issue 跟踪，以免长期缺少覆盖。"
        ),
        "large_change": "对 {refs} 这类大改动安排合并后的回归观察。",
        "breaking_change": "在发布说明中列出 {refs} 的不兼容变更并给出迁移说明。",
        "config_default_change": (
            "确认 {refs} 对配置项的改动（默认值变化、配置项重命名或删除），并在发布说明中注明。"
        ),
        "dependency_change": "确认依赖" + _WORKS,
        "known_gap": "跟踪 {refs} 尚未解决的部分，确认有人接手。",
        "repeated_fix": "为 {refs} 再次修复的问题补充回归测试，确认这次已彻底解决。",
        "docker_change": "确认镜像" + _WORKS,
        "ci_change": "确认 CI " + _WORKS,
        "no_approval": "请维护者补充评审 {refs}。",
        "cross_cutting": "请相关模块负责人共同复查跨模块变更 {refs}。",
        "works_everywhere": "确认{names} 变更在各环境与流水线中正常工作：{parts}。",
    },
    check_names={"dependency_change": "依赖", "docker_change": "镜像", "ci_change": "CI"},
    check_part="{name} {refs}",
    no_follow_up="本周数据未提示需要专门跟进的事项。",
)
