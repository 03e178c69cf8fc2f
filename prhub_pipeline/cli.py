"""The `prhub` command: materialize weeks without the UI, read reports, query the warehouse."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from datetime import UTC, date, datetime
from pathlib import Path
from typing import NoReturn

from prhub_pipeline.config import CONFIG_ENV_VAR, ConfigError, Settings, find_config_path
from prhub_pipeline.records import LANGS
from prhub_pipeline.warehouse import WarehouseError
from prhub_pipeline.weeks import iter_weeks, last_complete_week, parse_week

# A shell's exit status for a command stopped by Ctrl-C (128 + SIGINT).
INTERRUPTED_EXIT = 130


class UsageError(Exception):
    """The command line asks for something that cannot be done; the message says why."""


class _Parser(argparse.ArgumentParser):
    """argparse, with a bad argument reported on one line, like every other error."""

    def error(self, message: str) -> NoReturn:
        # argparse would print the usage first; `--help` shows it.
        self.exit(2, f"{self.prog}: {message}\n")


def _week_argument(text: str) -> date:
    try:
        return parse_week(text)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _port_argument(text: str) -> int:
    port = int(text) if text.isascii() and text.isdigit() else 0
    if not 1 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"{text!r} is not a port number (1-65535)")
    return port


def _query_argument(text: str) -> str:
    from prhub_pipeline.warehouse.query import check_query

    try:
        return check_query(text)
    except WarehouseError as exc:
        raise argparse.ArgumentTypeError(str(exc)) from None


def _output_file(
    option: str, path: Path, *, make_folders: bool, inputs: Mapping[str, Path | None]
) -> None:
    """Refuse, before any work is done, an output path no file can be written at, or one that
    would replace an input (`inputs`: what each is, e.g. "the --test file")."""
    for name, existing in inputs.items():
        if existing is not None and path.resolve() == existing.resolve():
            raise UsageError(f"{option} {path}: is {name}; writing there would replace it")
    if path.is_dir():
        raise UsageError(f"{option} {path}: is a directory; name a file")
    folder = path.parent
    while make_folders and not folder.exists():
        folder = folder.parent
    if not folder.exists():
        raise UsageError(f"{option} {path}: no such directory {folder}")
    if not folder.is_dir():
        raise UsageError(f"{option} {path}: {folder} is not a directory")


def _parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="prhub", description=__doc__)
    config_help = f"settings file (default: ${CONFIG_ENV_VAR}, else ./prhub.yaml)"
    # Before the command (`prhub --config F sql ...`) or after it, as people type it.
    parser.add_argument("--config", help=config_help)
    commands = parser.add_subparsers(dest="command", required=True)

    def with_config(sub: argparse.ArgumentParser) -> argparse.ArgumentParser:
        sub.add_argument("--config", help=config_help, default=argparse.SUPPRESS)
        return sub

    materialize = with_config(
        commands.add_parser("materialize", help="materialize every asset for a range of weeks")
    )
    materialize.add_argument("--repo", help="OWNER/NAME (default: every configured repository)")
    materialize.add_argument(
        "--week", type=_week_argument, help="first week, its Monday (default: last complete week)"
    )
    materialize.add_argument(
        "--through", type=_week_argument, help="last week, its Monday (default: --week)"
    )
    materialize.add_argument(
        "--verbose",
        "-v",
        action="store_true",
        help="also print Dagster's own log on stderr (a failed step's traceback)",
    )

    ui = with_config(commands.add_parser("ui", help="start the Dagster UI (dagster dev)"))
    ui.add_argument(
        "--dagster-home",
        help="instance folder (default: $DAGSTER_HOME, else .dagster_home beside the config)",
    )
    ui.add_argument(
        "--host", default="127.0.0.1", help="default: 127.0.0.1 (0.0.0.0 for other machines)"
    )
    ui.add_argument("--port", type=_port_argument, default=3000, help="default: 3000")

    sql = with_config(
        commands.add_parser(
            "sql",
            help="run SQL on a read-only connection",
            # Where a user with no README at hand finds the tables and models and their meaning.
            epilog="The warehouse's tables and SQL models, each with what it holds (--whole"
            " shows it all): SELECT table_name, table_comment FROM information_schema.tables; a"
            " table's columns: SELECT column_name, data_type, comment FROM duckdb_columns()"
            " WHERE table_name = 'prs'",
        )
    )
    sql.add_argument("query", type=_query_argument, help="the SQL to run")
    sql.add_argument(
        "--whole", action="store_true", help="print every cell whole (default: cut at 80 columns)"
    )

    report = with_config(commands.add_parser("report", help="print or write a stored report"))
    report.add_argument("--repo", help="OWNER/NAME (default: the only configured repository)")
    report.add_argument("--week", type=_week_argument, required=True, help="the week's Monday")
    report.add_argument("--lang", choices=LANGS, help="default: the configured language")
    report.add_argument("--format", choices=["md", "html"], default="md")
    report.add_argument("--out", type=Path, help="write to this file instead of printing")

    classifier = commands.add_parser("classifier", help="the module classifier")
    classifier_commands = classifier.add_subparsers(dest="classifier_command", required=True)
    evaluate = classifier_commands.add_parser(
        "evaluate", help="train on one file of PR records, evaluate on another; prints JSON"
    )
    evaluate.add_argument("--train", type=Path, required=True, help="PR records (JSON lines)")
    evaluate.add_argument("--test", type=Path, required=True, help="later PR records")
    evaluate.add_argument(
        "--repo-config",
        type=Path,
        help="YAML with allowed modules, aliases, label mapping, or a settings file",
    )
    evaluate.add_argument(
        "--predictions", type=Path, help="also write one JSON line per test PR here"
    )
    return parser


def _materialize(args: argparse.Namespace, settings: Settings, config_path: Path) -> int:
    # Weeks another run stores whole from now on are this command's work done (`asked_at`).
    asked_at = datetime.now(UTC)
    newest = last_complete_week_now(settings)
    first = args.week or newest
    last = args.through or first
    if last < first:
        if args.week is None:
            raise UsageError(
                f"--through {last} is before the latest complete week {first}, where a range"
                " without --week starts: give --week too"
            )
        raise UsageError(f"--through {last} is before --week {first}")
    if last > newest:
        raise UsageError(
            f"week {last} has not ended yet in {settings.timezone}; the newest complete week"
            f" is {newest}"
        )
    repos = [settings.repo(args.repo)] if args.repo else list(settings.repos)
    # Imported once the arguments are known good: Dagster takes seconds to import.
    from prhub_pipeline.defs.runner import materialize_weeks

    failed = False
    for index, repo in enumerate(repos):
        weeks = [week for week in iter_weeks(first, last) if week >= repo.start]
        if not weeks:
            print(f"{repo.name}: nothing to do, its history starts {repo.start}")
            continue
        print(f"{repo.name}: {len(weeks)} week(s) {weeks[0]} .. {weeks[-1]}", flush=True)
        outcome = materialize_weeks(
            config_path,
            repo.name,
            weeks,
            progress=print,
            dagster_log=args.verbose,
            asked_at=asked_at,
        )
        if outcome.interrupted:
            # Each week is stored whole or not at all; what the run had not reached keeps what
            # was stored before, and running the command again completes it.
            skipped = ", ".join(r.name for r in repos[index + 1 :])
            print(
                f"prhub: {repo.name}: {outcome.error}; weeks it had not finished keep what was"
                " stored before: run the command again"
                + (f"; not started: {skipped}" if skipped else ""),
                file=sys.stderr,
                flush=True,
            )
            return INTERRUPTED_EXIT
        if not outcome.success:
            failed = True
            hint = "" if args.verbose else " (--verbose shows Dagster's log and the traceback)"
            print(f"prhub: {repo.name}: {outcome.error}{hint}", file=sys.stderr, flush=True)
    return 1 if failed else 0


def last_complete_week_now(settings: Settings) -> date:
    return last_complete_week(datetime.now(UTC), settings.timezone)


def _ui(args: argparse.Namespace, config_path: Path) -> int:
    from prhub_pipeline.defs.instance import (
        default_dagster_home,
        exec_dagster_dev,
        materialize_home,
        prepare_dagster_home,
    )

    if args.dagster_home:
        source, home = "--dagster-home", Path(args.dagster_home)
    elif os.environ.get("DAGSTER_HOME"):
        source, home = "$DAGSTER_HOME", Path(os.environ["DAGSTER_HOME"])
    else:
        source, home = "instance folder", default_dagster_home(config_path)
    home = home.expanduser().resolve()
    if home.exists() and not home.is_dir():
        raise UsageError(f"{source} {home}: is not a directory")
    try:
        home.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise UsageError(f"{source} {home}: cannot create the folder: {exc.strerror}") from None

    prepare_dagster_home(home)
    print(f"Dagster UI on http://{args.host}:{args.port} (instance: {home})", flush=True)
    if materialize_home(config_path) != home:
        # A `prhub materialize` the UI does not know of makes "Materialize missing" redo it.
        print(
            f"prhub materialize records its runs in this instance with DAGSTER_HOME={home};"
            " without it the UI does not see them",
            flush=True,
        )
    exec_dagster_dev(home, config_path, args.host, args.port)
    return 0


def _report(args: argparse.Namespace, settings: Settings, config_path: Path) -> int:
    from prhub_pipeline.warehouse import connect
    from prhub_pipeline.warehouse.connection import READER_LOCK_SECONDS
    from prhub_pipeline.warehouse.reports import read_report

    if args.out:
        stored_files = {"the warehouse": settings.database, "the config file": config_path}
        _output_file("--out", args.out, make_folders=True, inputs=stored_files)
    if args.repo:
        # A repository removed from the config keeps its stored reports, which stay readable.
        configured = next((r for r in settings.repos if r.name == args.repo), None)
        repo = args.repo
    elif len(settings.repos) == 1:
        configured = settings.repos[0]
        repo = configured.name
    else:
        raise UsageError("several repositories are configured: name one with --repo")
    lang = args.lang or settings.language
    # A user waiting at the terminal: a materialize holding the file is said within seconds.
    with connect(settings.database, read_only=True, lock_timeout=READER_LOCK_SECONDS) as con:
        stored = read_report(con, repo, args.week, lang)
    if stored is None:
        missing = f"no {lang} report is stored for {repo} week {args.week}"
        if configured is None:
            names = ", ".join(r.name for r in settings.repos)
            raise UsageError(f"{missing}, and {repo!r} is not configured (configured: {names})")
        newest = last_complete_week_now(settings)
        # Point at the command that makes it only where that command would.
        if args.week < configured.start:
            raise UsageError(f"{missing}: its history starts {configured.start} (repos[].start)")
        if args.week > newest:
            raise UsageError(
                f"{missing}: the week has not ended yet in {settings.timezone}; the newest"
                f" complete week is {newest}"
            )
        raise UsageError(f"{missing}; run: prhub materialize --repo {repo} --week {args.week}")
    text = stored.markdown if args.format == "md" else stored.html
    if args.out:
        try:
            args.out.parent.mkdir(parents=True, exist_ok=True)
            args.out.write_text(text, encoding="utf-8")
        except OSError as exc:
            raise UsageError(f"--out {args.out}: cannot write: {exc.strerror}") from None
        print(f"wrote {args.out}")
    else:
        sys.stdout.write(text if text.endswith("\n") else text + "\n")
    return 0


def _classifier(args: argparse.Namespace) -> int:
    # Imported here: scikit-learn takes seconds to import, and only this command needs it.
    from prhub_pipeline.modelling.tagging.evaluation import (
        EvaluationError,
        evaluate_files,
        load_modules_config,
    )
    from prhub_pipeline.modelling.tagging.pr_records import PrRecordError

    if args.predictions:  # checked now: training takes a while
        inputs = {
            "the --train file": args.train,
            "the --test file": args.test,
            "the --repo-config file": args.repo_config,
        }
        _output_file("--predictions", args.predictions, make_folders=False, inputs=inputs)
    try:
        repo_config = load_modules_config(args.repo_config) if args.repo_config else None
        report = evaluate_files(args.train, args.test, repo_config, args.predictions)
    except (EvaluationError, PrRecordError) as exc:
        raise UsageError(str(exc)) from None
    for warning in report.warnings:
        print(f"prhub: warning: {warning}", file=sys.stderr)
    print(report.model_dump_json(indent=2))
    return 0


def _sql(args: argparse.Namespace, settings: Settings) -> int:
    from prhub_pipeline.warehouse.query import format_table, run_query

    columns, rows = run_query(settings.database, args.query, models_dir=settings.sql_models_dir)
    print(format_table(columns, rows, whole=args.whole))
    return 0


def _stop_writing_stdout() -> None:
    """Whoever read the output stopped (`prhub sql ... | head`): nothing failed, and what is
    left in stdout's buffer goes nowhere rather than failing again as the interpreter exits."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a file: nothing will be flushed to a closed pipe
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, fd)
    os.close(devnull)


def main(argv: Sequence[str] | None = None) -> int:
    from prhub_pipeline.config import load_settings

    args = _parser().parse_args(argv)
    try:
        if args.command == "classifier":
            if args.config is not None:
                raise UsageError(
                    "--config: classifier evaluate reads no settings file; --repo-config names"
                    " a repository's modules"
                )
            return _classifier(args)
        config_path = find_config_path(args.config).resolve()
        settings = load_settings(config_path)
        # Dagster's code location and any subprocess it starts read the same file.
        os.environ[CONFIG_ENV_VAR] = str(config_path)
        if args.command == "materialize":
            return _materialize(args, settings, config_path)
        if args.command == "ui":
            return _ui(args, config_path)
        if args.command == "sql":
            return _sql(args, settings)
        if args.command == "report":
            return _report(args, settings, config_path)
    except BrokenPipeError:
        _stop_writing_stdout()
        return 0
    except KeyboardInterrupt:
        # Ctrl-C outside a Dagster step (loading, between runs): one line, not a traceback.
        print("prhub: interrupted", file=sys.stderr)
        return INTERRUPTED_EXIT
    except (ConfigError, UsageError, WarehouseError) as exc:
        print(f"prhub: {exc}", file=sys.stderr)
        return 2
    except Exception as exc:
        print(f"prhub: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    return 2


if __name__ == "__main__":
    sys.exit(main())
