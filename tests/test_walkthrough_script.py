"""scripts/walkthrough.py: the console blocks of a small markdown sample are run and rewritten (cheap commands
only: no search; the whole walkthrough is too slow for the suite)."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "scripts" / "walkthrough.py"
sys.path.insert(0, str(ROOT / "scripts"))

import walkthrough  # noqa: E402

NEXT_PLAY = ("next: turn 1 (round 1): Ann's turn; Ann decides now: play (plays a card from hand); legal: play Tribune, "
             "play Architect, play Prefect, play Mercator/3, play Diplomat, play Senator")

SAMPLE = """\
# Sample

Start a game (prose is kept as it is, even `$ concordia` in it):

```console
$ concordia new game.json --players 3 --seed 7 --names Ann,Bob,Cid
stale output
```

A refused move:

```console
$ concordia play game.json "play Banana"
error: stale
$ echo $?
7
```
```console
$ concordia play game.json \\
    "play Tribune"
```

The helpers the walkthrough uses:

```console
$ sed 's/^Londinium=food/Londinium=wine/' imperium-cities.txt > typo.txt
$ head -2 typo.txt
old
```

```text
$ ls -l
not run: not a console block
```
"""

EXPECTED = f"""\
# Sample

Start a game (prose is kept as it is, even `$ concordia` in it):

```console
$ concordia new game.json --players 3 --seed 7 --names Ann,Bob,Cid
created game.json: Imperium, 3 players (Ann, Bob, Cid), simulation, seed 7
{NEXT_PLAY}
```

A refused move:

```console
$ concordia play game.json "play Banana"
error: move 'play Banana' rejected: 'play Banana' is not a legal move for Ann: Ann holds no 'banana' (hand: \
Tribune, Architect, Prefect, Mercator/3, Diplomat/Jupiter, Senator); legal now: play Tribune, play Architect, \
play Prefect, play Mercator/3, play Diplomat, play Senator
$ echo $?
2
```
```console
$ concordia play game.json \\
    "play Tribune"
played: play Tribune (Ann, turn 1, round 1)
next: turn 1 (round 1): Ann's turn; Ann decides now: tribune (may buy a colonist (Tribune), card Tribune); \
legal: done, colonist land, colonist sea
```

The helpers the walkthrough uses:

```console
$ sed 's/^Londinium=food/Londinium=wine/' imperium-cities.txt > typo.txt
$ head -2 typo.txt
Isca Dumnoniorum=food
Londinium=wine
```

```text
$ ls -l
not run: not a console block
```
"""


def test_parse_finds_each_command_its_continuation_and_shown_output():
    commands = walkthrough.parse(SAMPLE.split("\n"))
    assert [c.argv for c in commands] == [
        ["concordia", "new", "game.json", "--players", "3", "--seed", "7", "--names", "Ann,Bob,Cid"],
        ["concordia", "play", "game.json", "play Banana"], ["echo", "$?"],
        ["concordia", "play", "game.json", "play Tribune"],
        ["sed", "s/^Londinium=food/Londinium=wine/", "imperium-cities.txt", ">", "typo.txt"],
        ["head", "-2", "typo.txt"]]
    assert [c.output for c in commands] == [["stale output"], ["error: stale"], ["7"], [], [], ["old"]]
    assert [c.expects_error for c in commands] == [False, True, False, False, False, False]
    assert commands[3].text == 'concordia play game.json \\\n    "play Tribune"'


def test_the_commands_run_in_order_and_only_their_output_is_rewritten(tmp_path):
    assert walkthrough.regenerate(SAMPLE, tmp_path, log=None) == EXPECTED
    assert (tmp_path / "game.json").exists() and (tmp_path / "typo.txt").exists()


def test_check_reports_a_stale_block_and_passes_once_rewritten(tmp_path, capsys):
    doc = tmp_path / "doc.md"
    doc.write_text("Text.\n\n```console\n$ concordia new g.json --players 2 --seed 1\nold\n```\n")
    assert walkthrough.main(["--check", "--file", str(doc), "--quiet"]) == 1
    diff = capsys.readouterr().out
    assert "-old\n" in diff and "+created g.json: Imperium, 2 players" in diff
    assert walkthrough.main(["--file", str(doc), "--quiet"]) == 0
    assert doc.read_text().startswith("Text.\n\n```console\n$ concordia new g.json --players 2 --seed 1\n"
                                      "created g.json")
    assert walkthrough.main(["--check", "--file", str(doc), "--quiet"]) == 0
    assert capsys.readouterr().out == ""


def test_a_wall_clock_is_kept_when_the_rest_of_its_line_is_unchanged_and_check_skips_a_timed_search():
    lines = ["```console", "$ concordia hint t.json --iterations 9 --seed 1",
             "budget: 9; took 0.3 s of wall time; 90 nodes",
             "$ concordia hint t.json --time 1", "budget: 1 s; took 1.1 s of wall time; 4 nodes", "```"]
    commands = walkthrough.parse(lines)
    commands[0].shown = ["budget: 9; took 0.5 s of wall time; 90 nodes"]
    commands[1].shown = ["budget: 1 s; took 1.4 s of wall time; 5 nodes"]
    commands[1].timed = True
    assert walkthrough.rewrite(lines, commands) == lines[:4] + commands[1].shown + lines[5:]
    assert walkthrough.rewrite(lines, commands, keep_timed=True) == lines
    commands[0].shown = ["budget: 9; took 0.5 s of wall time; 91 nodes"]   # the line changed: its new clock too
    assert walkthrough.rewrite(lines, commands, keep_timed=True)[2] == commands[0].shown[0]


def _script(tmp_path, text):
    doc = tmp_path / "doc.md"
    doc.write_text(text)
    r = subprocess.run([sys.executable, str(SCRIPT), "--file", str(doc), "--quiet"], capture_output=True, text=True,
                       timeout=60)
    assert "Traceback" not in r.stderr
    assert doc.read_text() == text     # nothing written
    return r


def test_a_dollar_line_that_is_not_a_concordia_command_is_one_line_and_exit_2(tmp_path):
    r = _script(tmp_path, "```console\n$ concordia new g.json --players 2 --seed 1\n```\n```console\n$ rm -rf x\n```\n")
    assert r.returncode == 2 and r.stdout == ""
    assert r.stderr.splitlines() == ["error: doc.md line 5: `$ rm -rf x` is not a concordia command (the only others "
                                     "run are head, sed, python3 and `echo $?`)"]
    assert not (tmp_path / "g.json").exists()      # refused before anything ran


def test_a_command_that_fails_where_the_doc_shows_it_passing_stops_with_one_line(tmp_path):
    r = _script(tmp_path, "```console\n$ concordia show missing.json\nsome board\n```\n")
    assert r.returncode == 1
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: doc.md line 2: `$ concordia show missing.json` exited 2: "
                                                   "error: "), r.stderr
    assert lines[0].endswith("but the doc shows it passing")
