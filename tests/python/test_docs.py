"""The docs never lie: every shell and Python block of README.md and docs/*.md runs here, and what a
block shows of its output is what it prints.

The blocks run in a folder that holds the files they name (SANDBOX below), with the CLI on PATH as
`sediment-rows` and the module on PYTHONPATH. A Python block also finds the names prose snippets take
for granted (PRELUDE), and the Python blocks together pass `mypy --strict` with them. HTML comments
right before a block steer it:

    <!-- doctest: skip: WHY -->            the block does not run here, and says why (CI runs it, say)
    <!-- doctest: replace: OLD => NEW -->  runs the block with OLD replaced (a cluster's address, s3://)
    <!-- doctest: file NAME -->            the block is the content of the sandbox's file NAME
    <!-- doctest: output -->               the block is the output of the block before it, exactly
    <!-- doctest: status N -->             the block's last command exits N (0 otherwise)

A plain block whose lines start with `$ ` is a session: each command runs, and the lines after it, up
to the next `$ `, are what it prints ("..." stands for any lines)."""
import gzip
import json
import os
import re
import shutil
import subprocess
import sys
import textwrap
from typing import Dict, List, NamedTuple, Optional, Tuple

import pytest

import sediment_rows

ROOT = os.path.normpath(os.path.join(os.path.dirname(__file__), "..", ".."))
DOCS = ["README.md"] + sorted("docs/" + f for f in os.listdir(os.path.join(ROOT, "docs")) if f.endswith(".md"))
RUN = ("sh", "python")  # the languages of the blocks that run

# The names Python snippets take for granted, with their types for mypy.
PRELUDE = '''\
import sediment_rows
from typing import Any
line: str = open("rows.jsonl", encoding="utf-8").readline().rstrip("\\n")  # a row as text
trajectory: bytes = open("trajectory.json", "rb").read()  # an ATIF trajectory (examples/trajectory.json)
harbor_trajectory: bytes = trajectory
meta_line: str = open("meta.jsonl", encoding="utf-8").readline()  # {"metadata": ..., "reward": ...} (docs/convert.md)
def train_on(*values: Any) -> None: ...
def train(*values: Any) -> None: ...
'''


class Block(NamedTuple):
    file: str
    line: int  # of its opening fence
    lang: str
    text: str
    directives: List[str]

    def where(self) -> str:
        return f"{self.file}:{self.line}"

    def directive(self, name: str) -> Optional[str]:
        for d in self.directives:
            if d == name or d.startswith(name + " ") or d.startswith(name + ":"):
                return d[len(name):].lstrip(": ").strip()
        return None


def blocks(doc: str) -> List[Block]:
    """The fenced blocks of `doc`, each with the doctest directives of the comments just before it."""
    out: List[Block] = []
    lines = open(os.path.join(ROOT, doc), encoding="utf-8").read().split("\n")
    directives: List[str] = []
    i = 0
    while i < len(lines):
        text = lines[i].strip()
        comment = re.fullmatch(r"<!-- doctest: (.*) -->", text)
        if comment:
            directives.append(comment.group(1).strip())
        elif text.startswith("```"):
            end = i + 1
            while not lines[end].strip().startswith("```"):
                end += 1
            indent = len(lines[i]) - len(lines[i].lstrip())
            body = "\n".join(l[indent:] for l in lines[i + 1:end]) + "\n"
            out.append(Block(doc, i + 1, text[3:].strip(), body, directives))
            directives = []
            i = end
        elif text:
            directives = []  # a directive stands right before its block
        i += 1
    return out


ALL = [b for doc in DOCS for b in blocks(doc)]


@pytest.fixture
def sandbox(tmp_path: object) -> str:
    """A folder of its own for each block, holding every file the blocks name, the CLI on PATH as
    sediment-rows."""
    root = str(tmp_path)
    examples = os.path.join(ROOT, "examples")
    shutil.copytree(examples, os.path.join(root, "examples"))
    rows = open(os.path.join(examples, "rows.jsonl"), "rb").read()
    trajectory = open(os.path.join(examples, "trajectory.json"), "rb").read()
    files: Dict[str, bytes] = {
        "rows.jsonl": rows,
        "old.jsonl": open(os.path.join(examples, "mixed-versions.jsonl"), "rb").read(),
        "mixed-versions.jsonl": open(os.path.join(examples, "mixed-versions.jsonl"), "rb").read(),
        "export/families.jsonl": open(os.path.join(examples, "families.jsonl"), "rb").read(),
        "export/rollouts.jsonl": rows,
        "trajectory.json": trajectory,
        "run.json": trajectory,
        "runs.jsonl": json.dumps(json.loads(trajectory)).encode() + b"\n",
    }
    for name, data in files.items():
        os.makedirs(os.path.dirname(os.path.join(root, name)) or root, exist_ok=True)
        with open(os.path.join(root, name), "wb") as f:
            f.write(data)
    with gzip.open(os.path.join(root, "rows.jsonl.gz"), "wb") as f:
        f.write(rows)
    for b in ALL:  # the files the docs spell out
        name = b.directive("file")
        if name:
            with open(os.path.join(root, name), "w", encoding="utf-8") as f:
                f.write(b.text)
    os.makedirs(os.path.join(root, "bin"))
    os.symlink(os.environ["SEDIMENT_ROWS_CLI"], os.path.join(root, "bin", "sediment-rows"))
    return root


def environment(sandbox: str) -> Dict[str, str]:
    env = dict(os.environ)
    env["PATH"] = os.path.join(sandbox, "bin") + os.pathsep + env["PATH"]
    env["PYTHONPATH"] = os.pathsep.join(p for p in [os.environ.get("PYTHONPATH", "")] + sys.path if p)
    return env


def prepared(block: Block) -> str:
    """The block's text with its replacements made; each must find its text."""
    text = block.text
    for d in block.directives:
        if d.startswith("replace:"):
            old, new = (s.strip() for s in d[len("replace:"):].split("=>"))
            assert old in text, f"{block.where()}: nothing to replace: {old}"
            text = text.replace(old, new)
    return text


def run(block: Block, sandbox: str) -> Tuple[int, str]:
    """Runs a block in the sandbox: its exit status, and what it printed (standard output, then error)."""
    text = prepared(block)
    if block.lang == "python":
        command = [sys.executable, "-c", PRELUDE + text]
    else:
        command = ["bash", "-e", "-o", "pipefail", "-c", text]
    done = subprocess.run(command, cwd=sandbox, env=environment(sandbox), capture_output=True, timeout=300)
    return done.returncode, done.stdout.decode() + done.stderr.decode()


def runnable(b: Block) -> bool:
    return b.lang in RUN and b.directive("file") is None


def test_every_runnable_block_runs_or_says_why_not() -> None:
    for b in ALL:
        if b.lang in RUN and b.directive("skip") is not None:
            assert b.directive("skip"), f"{b.where()}: a skipped block says why"
    # (the parser finds them: a guard against a test that checks nothing)
    assert sum(runnable(b) and b.directive("skip") is None for b in ALL) >= 12
    assert len([b for b in ALL if b.lang == "" and b.text.startswith("$ ")]) >= 4


@pytest.mark.parametrize("block", [b for b in ALL if runnable(b) and b.directive("skip") is None], ids=Block.where)
def test_block_runs_and_prints_what_the_docs_show(block: Block, sandbox: str) -> None:
    status, printed = run(block, sandbox)
    expected_status = int(block.directive("status") or 0)
    assert status == expected_status, f"{block.where()} exited {status}:\n{printed}"
    following = ALL.index(block) + 1
    if following < len(ALL) and ALL[following].directive("output") is not None:
        assert printed == ALL[following].text, f"{block.where()} printed:\n{printed}"


def session(block: Block) -> List[Tuple[str, List[str]]]:
    """A `$ ` block's commands, each with the lines it shows."""
    out: List[Tuple[str, List[str]]] = []
    for l in block.text.rstrip("\n").split("\n"):
        if l.startswith("$ "):
            out.append((l[2:], []))
        else:
            out[-1][1].append(l)
    return out


def matches(shown: List[str], printed: List[str]) -> bool:
    """Whether `printed` is `shown`, where a line "..." stands for any lines."""
    if not shown:
        return not printed
    if shown[0] == "...":
        return any(matches(shown[1:], printed[k:]) for k in range(len(printed) + 1))
    return bool(printed) and printed[0] == shown[0] and matches(shown[1:], printed[1:])


SESSIONS = [b for b in ALL if b.lang == "" and b.text.startswith("$ ")]


@pytest.mark.parametrize("block", SESSIONS, ids=Block.where)
def test_session_prints_what_the_docs_show(block: Block, sandbox: str) -> None:
    for command, shown in session(block):
        done = subprocess.run(["bash", "-c", command], cwd=sandbox, env=environment(sandbox), capture_output=True, timeout=300)
        text = (done.stdout.decode() + done.stderr.decode()).rstrip("\n")
        printed = text.split("\n") if text else []
        assert done.returncode in (0, 1), f"{block.where()}: {command} exited {done.returncode}"
        assert matches(shown, printed), f"{block.where()}: {command} printed:\n" + "\n".join(printed)


def test_python_blocks_pass_mypy_strict(tmp_path: object) -> None:
    """The Python blocks, each a function over the prelude's names, type-check with the package."""
    pytest.importorskip("mypy", reason="mypy is not installed (cmake/install-deps.sh installs Debian's mypy)")
    functions = []
    for k, b in enumerate(b for b in ALL if b.lang == "python" and b.directive("skip") is None):
        body = textwrap.indent(prepared(b), "    ")
        imports = "\n".join(l for l in body.split("\n") if re.match(r"\s*(import|from) ", l))
        body = "\n".join(l for l in body.split("\n") if not re.match(r"\s*(import|from) ", l))
        functions.append(f"# {b.where()}\n{textwrap.dedent(imports)}\n\ndef block_{k}() -> None:\n{body}\n    pass\n")
    program = os.path.join(str(tmp_path), "docs_blocks.py")
    with open(program, "w", encoding="utf-8") as f:
        f.write(PRELUDE + "\n\n" + "\n\n".join(functions))
    # The blocks' use of the package is what is checked (test_types.py checks the package itself against
    # dask's types, and reports its errors): dask and distributed are left out (no site-packages, missing
    # imports are Any), so that mypy does not read them for a quarter of a minute.
    package = os.path.dirname(os.path.dirname(sediment_rows.__file__))
    done = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental", "--cache-dir", os.devnull,
                           "--no-site-packages", "--follow-imports=silent", "--ignore-missing-imports",
                           "--allow-untyped-calls", program],
                          capture_output=True, text=True, env=dict(os.environ, MYPYPATH=package))
    assert done.returncode == 0, done.stdout
