#!/usr/bin/env python3
"""Regenerate docs/walkthrough.md by running its commands, in order, in a fresh temporary folder.

    python3 scripts/walkthrough.py            # rewrites docs/walkthrough.md and docs/walkthrough-review.png
    python3 scripts/walkthrough.py --check    # exit 1 with a unified diff if the file is out of date

Every ```console block is a list of `$ COMMAND` lines (a trailing backslash continues a command on the next
line), each followed by the output it showed; that output is replaced by the command's real output (stdout,
then stderr: a refused command shows its `error: ...` line) and the prose is left as it is. `concordia` is run
from this interpreter. Besides it, only the helpers the walkthrough itself uses are run: head, sed (a final
`> FILE` redirects), python3 (this interpreter) and `echo $?` (the previous command's exit code); any other
`$` line is refused. The cities file the walkthrough reads is written first (FILES: it is not shown whole).

Run-to-run differences: the wall-clock seconds a search reports are kept from the file when the rest of the
line is unchanged (so a rerun does not churn them); a search at a time budget (no --iterations) gives other
figures on every run, its output is whatever this run gave, and --check leaves it out. Searches with
--iterations are deterministic. --check does not compare the plot image.
Exit codes: 0 done (or up to date), 1 out of date (--check) or a command did not pass/fail as shown, 2 bad input.
"""
from __future__ import annotations

import argparse
import difflib
import os
import re
import shlex
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from concordia_ai.io import safe_read  # noqa: E402
from concordia_ai.io.atomic_write import write_atomic  # noqa: E402

DOC = ROOT / "docs" / "walkthrough.md"
# `python -m concordia_ai.cli` has no __main__; prog_name keeps click's usage text saying `concordia`.
CONCORDIA = [sys.executable, "-c", "from concordia_ai.cli import main; main(prog_name='concordia')"]
HELPERS = ("head", "sed", "python3")   # and `echo $?`
# The layout of the walkthrough's table, in the board order `concordia show` prints it: the doc only shows
# its first lines (`head -5`), so it is written here.
FILES = {"imperium-cities.txt": """\
Isca Dumnoniorum=food
Londinium=food
Burdigala=brick
Lutetia=food
Massilia=tool
Brigantium=cloth
Olisipo=wine
Valentia=food
Colonia Agrippina=wine
Vindobona=tool
Aquileia=brick
Novaria=cloth
Syracusae=tool
Carthago=brick
Rusadir=tool
Napoca=brick
Sirmium=cloth
Tomis=brick
Athenae=wine
Dyrrhachium=food
Cyrene=food
Leptis Magna=brick
Attalia=brick
Byzantium=wine
Sinope=tool
Antiochia=tool
Tyros=brick
Alexandria=food
Memphis=wine
Petra=cloth
"""}
# Plots the commands write into the temporary folder, copied beside the doc under the name it shows.
IMAGES = {"review.png": "walkthrough-review.png"}
# Wall-clock figures of a search: `took 0.3 s of wall time` (hint) and `..., 0.17 s; 6 legal moves` (--step).
CLOCK = re.compile(r"(took )\d+(?:\.\d+)?( s of wall time)|(nodes, )\d+(?:\.\d+)?( s;)")
SEARCHES = ("hint", "review", "analyze")


class BadInput(Exception):
    """The walkthrough cannot be run as written: one line, exit code 2."""


class Mismatch(Exception):
    """A command passed where the doc shows a refusal, or the other way round: one line, exit code 1."""


@dataclass
class Command:
    line: int           # 0-based index of its `$ ` line in the doc
    end: int            # index past its last output line
    text: str           # the command as written after `$ `, continuations joined
    argv: list[str]
    output: list[str]   # the output the doc shows
    shown: list[str] = field(default_factory=list)  # the output of this run
    timed: bool = False  # a search at a time budget: its figures differ run to run

    @property
    def expects_error(self) -> bool:
        return bool(self.output) and self.output[0].startswith("error: ")


def parse(lines: list[str], name: str = "walkthrough") -> list[Command]:
    """Every command of the ```console blocks, with the output lines shown under it."""
    commands: list[Command] = []
    fence = None    # the open fence's info string, None outside a fenced block
    i = 0
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            fence = line[3:].strip() if fence is None else None
            i += 1
            continue
        if fence != "console":
            i += 1
            continue
        if not line.startswith("$ "):
            raise BadInput(f"{name} line {i + 1}: a console block must start with a `$ ` command line, not {line!r}")
        start = i
        parts = [line[2:]]
        while parts[-1].endswith("\\"):
            i += 1
            if i >= len(lines) or lines[i].startswith("```"):
                raise BadInput(f"{name} line {start + 1}: the command's last line ends with a backslash")
            parts.append(lines[i])
        text = "\n".join(parts)
        i += 1
        out_start = i
        while i < len(lines) and not lines[i].startswith("$ ") and not lines[i].startswith("```"):
            i += 1
        if i >= len(lines):
            raise BadInput(f"{name} line {start + 1}: the console block is not closed")
        commands.append(Command(start, i, text, _argv(text, f"{name} line {start + 1}"), lines[out_start:i]))
    if fence is not None:
        raise BadInput(f"{name}: a fenced block is not closed")
    return commands


def _argv(text: str, where: str) -> list[str]:
    try:
        argv = shlex.split(text.replace("\\\n", ""))  # a backslash-newline goes, as in the shell
    except ValueError as e:
        raise BadInput(f"{where}: cannot split `$ {text}`: {e}") from None
    if (argv[:1] == ["concordia"] and len(argv) > 1) or argv == ["echo", "$?"] or (argv and argv[0] in HELPERS):
        return argv
    first = text.splitlines()[0] if text else ""
    raise BadInput(f"{where}: `$ {first}` is not a concordia command (the only others run are "
                   f"{', '.join(HELPERS)} and `echo $?`)")


def _searches_at_time_budget(argv: list[str]) -> bool:
    # Such a search (`concordia hint table.json --top 1 --quiet`: 3 CPU seconds per process) runs as many
    # iterations as the CPU allows, so its figures differ run to run: written as this run gave them, never checked.
    if argv[0] != "concordia" or "--iterations" in argv:
        return False
    return argv[1] in SEARCHES or (argv[1] == "play" and "--suggested" in argv)


def run(commands: list[Command], workdir: Path, log=sys.stderr, name: str = "walkthrough") -> None:
    """Run every command in `workdir`, in order, and set its `shown` output."""
    for file, content in FILES.items():
        (workdir / file).write_text(content, encoding="utf-8")
    places = sorted({str(workdir), str(workdir.resolve())}, key=len, reverse=True)
    rc = 0
    for n, c in enumerate(commands, 1):
        if log:
            print(f"[{n}/{len(commands)}] $ {c.text}", file=log, flush=True)
        if c.argv == ["echo", "$?"]:
            c.shown = [str(rc)]
            continue
        argv, target = c.argv, None
        if len(argv) > 2 and argv[-2] == ">":
            argv, target = argv[:-2], workdir / argv[-1]
        exe = CONCORDIA + argv[1:] if argv[0] == "concordia" else \
            [sys.executable] + argv[1:] if argv[0] == "python3" else argv
        try:
            r = subprocess.run(exe, cwd=workdir, capture_output=True, text=True)
        except OSError as e:
            raise BadInput(f"{name} line {c.line + 1}: cannot run `{argv[0]}`: {e}") from None
        rc = r.returncode
        if target is not None:
            target.write_text(r.stdout, encoding="utf-8")
            text = r.stderr
        else:
            text = r.stdout + r.stderr
        for place in places:
            text = text.replace(place + os.sep, "").replace(place, ".")
        c.shown = text.rstrip("\n").split("\n") if text.strip("\n") else []
        if (rc != 0) != c.expects_error:
            got = f"exited {rc}" + (f": {r.stderr.strip().splitlines()[-1]}" if r.stderr.strip() else "")
            raise Mismatch(f"{name} line {c.line + 1}: `$ {c.text}` {got}, but the doc shows "
                           + ("a refusal" if c.expects_error else "it passing"))
        c.timed = rc == 0 and _searches_at_time_budget(c.argv)


def _unclocked(line: str) -> str:
    return CLOCK.sub(lambda m: (m.group(1) or m.group(3)) + "#" + (m.group(2) or m.group(4)), line)


def rewrite(lines: list[str], commands: list[Command], keep_timed: bool = False) -> list[str]:
    """The doc with each command's output replaced by its `shown` output (prose and commands as they are).

    A wall-clock figure is kept from the doc when the rest of its line is unchanged; keep_timed keeps the
    doc's output of the searches at a time budget (for --check)."""
    strip = not any(line != line.rstrip() for c in commands for line in c.output)
    out: list[str] = []
    pos = 0
    for c in commands:
        out += lines[pos:c.line]
        out += lines[c.line:c.line + c.text.count("\n") + 1]
        if keep_timed and c.timed:
            new = c.output
        else:
            new = [s.rstrip() if strip else s for s in c.shown]
            new = [old if i < len(c.output) and _unclocked(old := c.output[i]) == _unclocked(s) else s
                   for i, s in enumerate(new)]
        out += new
        pos = c.end
    return out + lines[pos:]


def regenerate(text: str, workdir: Path, name: str = "walkthrough", keep_timed: bool = False, log=sys.stderr) -> str:
    """Run the doc `text`'s commands in the empty folder `workdir` and return the doc with their new output."""
    lines = text.split("\n")
    commands = parse(lines, name)
    run(commands, workdir, log, name)
    return "\n".join(rewrite(lines, commands, keep_timed))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--check", action="store_true",
                    help="regenerate into memory; exit 1 with a diff if the doc differs (time-budget searches are "
                         "left out)")
    ap.add_argument("--file", type=Path, default=DOC, help="the markdown file (default: docs/walkthrough.md)")
    ap.add_argument("--quiet", action="store_true", help="no progress line per command on stderr")
    args = ap.parse_args(argv)
    log = None if args.quiet else sys.stderr
    try:
        try:
            text = safe_read.read_text(str(args.file))
        except safe_read.UserFileError as e:
            raise BadInput(str(e)) from None
        with tempfile.TemporaryDirectory(prefix="walkthrough-") as tmp:
            new = regenerate(text, Path(tmp), args.file.name, keep_timed=args.check, log=log)
            if args.check:
                if new == text:
                    return 0
                sys.stdout.writelines(difflib.unified_diff(text.splitlines(True), new.splitlines(True),
                                                           str(args.file), f"{args.file} (regenerated)"))
                return 1
            write_atomic(str(args.file), new)
            for made, shown in IMAGES.items():
                if (Path(tmp) / made).exists() and f"]({shown})" in text:
                    write_atomic(str(args.file.parent / shown), (Path(tmp) / made).read_bytes())
    except BadInput as e:
        print(f"error: {e}", file=sys.stderr)
        return 2
    except Mismatch as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
