"""sediment_rows.dask's jobs that write (convert, upgrade, format) against the CLI run on each input file
alone: the same output bytes, counts and (file, line, pointer, message) errors, whatever the block size;
on a 2-worker LocalCluster, with a worker killed in the middle of a job; and over an earlier run's output."""
import gzip
import json
import os
import random
import subprocess

import pytest

import sediment_rows
import sediment_rows.dask

from test_dask import cli, variants

EXAMPLES = os.path.join(os.path.dirname(__file__), "..", "..", "examples")

# (job, the CLI's arguments, the job's arguments): each job as the CLI and Dask spell it
JOBS = {
    "format": (["format", "--schema", "nemo-gym-rollout", "--style", "sediment"],
               lambda paths, out, **kw: sediment_rows.dask.format(paths, "nemo-gym-rollout", out, style="sediment", **kw)),
    "upgrade": (["upgrade", "--to", "nemo-gym-rollout.v4", "--lossy"],
                lambda paths, out, **kw: sediment_rows.dask.upgrade(paths, "nemo-gym-rollout.v4", out, lossy=True, **kw)),
    "convert": (["convert", "--from", "nemo-gym-rollout", "--to", "atif-v1.7"],
                lambda paths, out, **kw: sediment_rows.dask.convert(paths, "nemo-gym-rollout", "atif-v1.7", out, **kw)),
}


def make_corpus(root):
    """Rows of v2, v3 and v4, valid and not, blank lines; a gzip shard, a shard with no last newline, a
    pretty-printed .json document, a shard in a subfolder."""
    rng = random.Random(33)
    good, bad, blank = variants()
    with open(os.path.join(EXAMPLES, "mixed-versions.jsonl"), "rb") as f:
        good += [l.rstrip(b"\n") for l in f if l.strip()]
    (root / "sub").mkdir()
    names = ["shard-0.jsonl", "shard-1.jsonl.gz", "shard-2.jsonl", "sub/shard-3.jsonl"]
    paths = []
    for k, name in enumerate(names):
        lines = [rng.choice(good if rng.random() < 0.7 else (bad if rng.random() < 0.8 else blank)) for _ in range(30)]
        data = b"\n".join(lines) + (b"" if k == 2 else b"\n")
        path = root / name
        path.write_bytes(gzip.compress(data) if name.endswith(".gz") else data)
        paths.append(str(path))
    whole = root / "shard-4.json"
    whole.write_text(json.dumps(json.loads(good[-3]), indent=2))
    return sorted(paths + [str(whole)])


def cli_run(args, path):
    """The CLI on one file: (its standard output, ok, failed, [(file, line, pointer, message)])."""
    run = subprocess.run([cli(), *args, "--format", "jsonl", path], capture_output=True)
    assert run.returncode in (0, 1), run.stderr
    reports = [r for r in (json.loads(l) for l in run.stderr.decode().splitlines() if l.startswith("{")) if "summary" not in r]
    ok = sum(1 for r in reports if r["valid"])
    return run.stdout, ok, len(reports) - ok, [(r["file"], r["line"], e["pointer"], e["message"]) for r in reports for e in r["errors"]]


def expected(job, paths):
    """What the CLI writes and reports for each file alone: ({output name: bytes}, in the inputs' order, ok,
    failed, errors)."""
    args, _ = JOBS[job]
    root = os.path.dirname(paths[0])
    files, ok, failed, errors = {}, 0, 0, []
    for path in paths:
        out, o, f, e = cli_run(args, path)
        name = os.path.relpath(path, root).removesuffix(".gz")
        files[name + "l" if name.endswith(".json") else name] = out
        ok, failed, errors = ok + o, failed + f, errors + e
    return files, ok, failed, errors


def written(folder):
    """Every file under `folder`, hidden ones too: {relative path: bytes}."""
    found = {}
    for where, _, names in os.walk(folder):
        for name in names:
            path = os.path.join(where, name)
            with open(path, "rb") as f:
                found[os.path.relpath(path, folder)] = f.read()
    return found


def outcome(result):
    return result.written, result.failed, [(e.file, e.line, e.pointer, e.message) for e in result.errors]


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    paths = make_corpus(tmp_path_factory.mktemp("corpus"))
    return paths, {job: expected(job, paths) for job in JOBS}


def test_the_corpus_fails_and_passes_every_job(corpus):
    _, runs = corpus
    for job, (files, ok, failed, errors) in runs.items():
        assert ok > 40 and failed > 10 and len({e[0] for e in errors}) >= 4, job
        assert all(files.values()), job


@pytest.mark.parametrize("job", sorted(JOBS))
@pytest.mark.parametrize("blocksize", [None, 600, 3000, "64 MiB"])
def test_each_job_writes_what_the_cli_writes(corpus, tmp_path, job, blocksize):
    paths, runs = corpus
    files, ok, failed, errors = runs[job]
    result = JOBS[job][1](paths, str(tmp_path / "out"), blocksize=blocksize, scheduler="threads")
    assert isinstance(result, sediment_rows.dask.Written)
    assert outcome(result) == (ok, failed, errors)
    assert written(tmp_path / "out") == files  # nothing else: no part, no staging folder
    assert result.files == [str(tmp_path / "out" / name) for name in files]  # in the inputs' order


@pytest.mark.parametrize("job", sorted(JOBS))
def test_the_clis_out_folder_and_the_job_write_the_same_files_named_as_given(corpus, tmp_path, monkeypatch, job):
    """Run from the corpus's folder on a relative glob: the CLI's --out and the job write the same files,
    and both name each input, and each output, as the caller named them."""
    paths, runs = corpus
    root = os.path.dirname(paths[0])
    monkeypatch.chdir(root)
    relative = sorted(os.path.relpath(p, root) for p in paths)
    args, run_job = JOBS[job]
    cli_out = tmp_path / "cli"
    run = subprocess.run([cli(), *args, "--format", "jsonl", "--out", str(cli_out), *relative], capture_output=True)
    assert run.returncode == 1, run.stderr
    assert run.stdout == b""
    reports = [r for r in (json.loads(l) for l in run.stderr.decode().splitlines() if l.startswith("{")) if "summary" not in r]
    assert {r["file"] for r in reports if not r["valid"]} <= set(relative)
    assert written(cli_out) == runs[job][0]
    # the job, on the glob "shard-*" and the subfolder's file as a path
    result = run_job(["shard-*", "sub/shard-3.jsonl"], "out", blocksize=700, scheduler="sync")
    assert written(os.path.join(root, "out")) == runs[job][0]
    named = sorted({e.file for e in result.errors})
    assert named and set(named) <= set(relative), named  # as given: no absolute path
    assert sorted((r["file"], r["line"]) for r in reports if not r["valid"]) == \
        sorted({(e.file, e.line) for e in result.errors})
    assert result.files == ["out/" + n for n in ("shard-0.jsonl", "shard-1.jsonl", "shard-2.jsonl", "shard-4.jsonl",
                                                  "sub/shard-3.jsonl")]
    for name in result.files:
        assert os.path.isfile(name)
    run_job(["shard-*", "sub/shard-3.jsonl"], "out", blocksize=700, scheduler="sync")  # (the job removes its staging)


def test_each_job_on_two_worker_processes(corpus, tmp_path):
    """Every job on worker processes (tasks pickled, files written by other processes, the staging
    folder removed by a worker): the CLI's bytes and verdicts."""
    distributed = pytest.importorskip("distributed")
    paths, runs = corpus
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster):
        for job in sorted(JOBS):
            files, ok, failed, errors = runs[job]
            out = tmp_path / job
            result = JOBS[job][1](paths, str(out), blocksize=700)
            assert outcome(result) == (ok, failed, errors), job
            assert written(out) == files, job


def test_upgrade_counts_what_lossy_drops(corpus, tmp_path):
    """The losses by kind equal those of upgrade() on each row alone."""
    paths, _ = corpus
    result = JOBS["upgrade"][1](paths, str(tmp_path / "out"), blocksize=700, scheduler="sync")
    want = {}
    for path in paths:
        data = gzip.decompress(open(path, "rb").read()) if path.endswith(".gz") else open(path, "rb").read()
        for line in ([data] if path.endswith(".json") else data.split(b"\n")):
            try:
                for loss in sediment_rows.upgrade(line, "nemo-gym-rollout", "nemo-gym-rollout.v4", lossy=True).losses:
                    want[sediment_rows._native._loss_kind(loss)] = want.get(sediment_rows._native._loss_kind(loss), 0) + 1
            except (sediment_rows.DocumentError, ValueError):
                pass
    assert result.losses == want


def test_a_rerun_over_an_earlier_output_gives_the_same_files(corpus, tmp_path):
    paths, runs = corpus
    out = tmp_path / "out"
    JOBS["format"][1](paths, str(out), blocksize=500, scheduler="threads")
    (out / "shard-0.jsonl").write_bytes(b"stale\n")  # an earlier run's file, changed since
    (out / "other.txt").write_bytes(b"kept")         # not the job's: left alone
    JOBS["format"][1](paths, str(out), blocksize=2000, scheduler="threads")
    assert written(out) == dict(runs["format"][0], **{"other.txt": b"kept"})


def test_arguments(corpus, tmp_path):
    paths, _ = corpus
    out = str(tmp_path / "out")
    with pytest.raises(ValueError, match="unknown schema"):
        sediment_rows.dask.format(paths, "nemo-gym-rollout.v9", out)
    with pytest.raises(ValueError, match="newer version"):
        sediment_rows.dask.upgrade(paths, "nemo-gym-rollout.v2", out, source="nemo-gym-rollout.v4")
    with pytest.raises(ValueError, match="needs source"):
        sediment_rows.dask.upgrade(paths, "nemo-gym-response.v3", out)
    with pytest.raises(ValueError):
        sediment_rows.dask.convert(paths, "nemo-gym-rollout", "sft-sample.v3", out)
    with pytest.raises(ValueError, match="overwrite an input"):
        sediment_rows.dask.format(paths[0], "nemo-gym-rollout", os.path.dirname(paths[0]))
    with pytest.raises(ValueError, match="blocksize"):
        sediment_rows.dask.format(paths, "nemo-gym-rollout", out, blocksize=0)
    assert not os.path.exists(out)  # a refused call writes nothing


def test_a_block_task_writes_into_a_reused_bytearray():
    """A worker thread's blocks reuse one output buffer: each call leaves exactly its own lines in it,
    a longer block's tail gone, and a buffer that a memoryview holds is refused, not overwritten."""
    rows = [l for l in open(os.path.join(EXAMPLES, "mixed-versions.jsonl"), "rb") if l.strip()]
    job = ("format", "nemo-gym-rollout", "", "sediment", False)
    native = sediment_rows._native
    into = bytearray()
    for block in (b"".join(rows * 3), rows[0], b"".join(rows[1:])):
        fresh = native._rewrite_block(*job, block, 1, False)
        reused = native._rewrite_block(*job, block, 1, False, into)
        assert reused[3] is into and bytes(into) == fresh[3] and fresh[3].count(b"\n") == fresh[1] > 0
        assert reused[:3] == fresh[:3] and reused[4:] == fresh[4:]
    with pytest.raises(TypeError, match="bytearray"):
        native._rewrite_block(*job, rows[0], 1, False, b"")
    with memoryview(into) as held:
        before = bytes(held)
        with pytest.raises(BufferError):
            native._rewrite_block(*job, b"".join(rows * 2), 1, False, into)
        assert bytes(held) == before


def test_atif_trajectories_become_responses(tmp_path):
    """A folder of trajectories (.json documents, and a JSONL of them) to NeMo Gym responses."""
    trajectory = json.load(open(os.path.join(EXAMPLES, "trajectory.json")))
    (tmp_path / "in").mkdir()
    for k in range(3):
        (tmp_path / "in" / f"t{k}.json").write_text(json.dumps(dict(trajectory, session_id=f"s{k}"), indent=2))
    broken = dict(trajectory, steps=[])
    (tmp_path / "in" / "many.jsonl").write_text("\n".join(json.dumps(t) for t in [trajectory, broken, trajectory]) + "\n")
    paths = sorted(str(p) for p in (tmp_path / "in").iterdir())
    args = ["convert", "--lossy", "--from", "atif-v1.7", "--to", "nemo-gym-response.v3"]
    result = sediment_rows.dask.convert(str(tmp_path / "in" / "*"), "atif-v1.7", "nemo-gym-response.v3", str(tmp_path / "out"),
                                        lossy=True, blocksize=100, scheduler="threads")
    runs = [cli_run(args, p) for p in paths]
    assert outcome(result) == (sum(r[1] for r in runs), sum(r[2] for r in runs), [e for r in runs for e in r[3]])
    assert written(tmp_path / "out") == {os.path.basename(p) + ("l" if p.endswith(".json") else ""): r[0] for p, r in zip(paths, runs)}
    assert (result.written, result.failed) == (5, 1)
    losses = sediment_rows.convert(open(os.path.join(EXAMPLES, "trajectory.json"), "rb").read(), "atif-v1.7", "nemo-gym-response.v3",
                                   lossy=True).losses
    kinds = {sediment_rows._native._loss_kind(loss) for loss in losses}
    assert set(result.losses) == kinds and sum(result.losses.values()) == 5 * len(losses)


def _kill_once(marker, where, output):
    """Installed in each worker: the first call of `where` in the whole cluster (the marker file is created
    once) kills its worker process mid-task; a join is killed with its file half written, and the marker
    then holds what a reader saw in `output` at that moment: {file: bytes}, hidden files left out."""
    import sediment_rows.dask as jobs

    def first():
        try:
            os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            return True
        except FileExistsError:
            return False

    if where == "block":
        native = jobs._native

        class Dying:
            def __getattr__(self, name):
                return getattr(native, name)

            @staticmethod
            def _rewrite_block(*args):
                result = native._rewrite_block(*args)
                if len(result[3]) > 0 and first():
                    os._exit(1)  # after the work, before its part is written
                return result
        jobs._native = Dying()
    else:
        append = jobs._append
        joining = set()  # the files a join has written a part into

        def dying_append(part, out):
            if id(out) in joining and first():  # a second part: the first one is written
                out.flush()
                seen = {}
                for where, folders, names in os.walk(output):
                    folders[:] = [f for f in folders if not f.startswith(".")]
                    for name in names:
                        with open(os.path.join(where, name), "rb") as f:
                            seen[os.path.relpath(os.path.join(where, name), output)] = f.read().decode()
                with open(marker, "w") as f:
                    json.dump(seen, f)
                os._exit(1)  # a joined file half written
            joining.add(id(out))
            append(part, out)
        jobs._append = dying_append


@pytest.mark.parametrize("where", ["block", "commit"])
def test_a_worker_killed_mid_job_leaves_the_undisturbed_output(corpus, tmp_path, where):
    distributed = pytest.importorskip("distributed")
    paths, runs = corpus
    files, ok, failed, errors = runs["upgrade"]
    marker = str(tmp_path / "killed")
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        client.run(_kill_once, marker, where, str(tmp_path / "out"))
        result = JOBS["upgrade"][1](paths, str(tmp_path / "out"), blocksize=800)
    assert os.path.exists(marker)  # a worker did die
    assert outcome(result) == (ok, failed, errors)
    assert written(tmp_path / "out") == files
    if where == "commit":  # what a reader saw when the worker died: whole files only
        seen = json.load(open(marker))
        assert all(files[name] == data.encode() for name, data in seen.items())


# ----- lint across shards ------------------------------------------------------------------------


def lint_corpus(root):
    """Rows of a few sessions spread over three shards: segments of one session in two files that
    disagree (split, a duplicate segment index), an instance_id two sessions share, invalid rows, a
    gzip shard; lint findings within rows too."""
    with open(os.path.join(EXAMPLES, "rows.jsonl"), "rb") as f:
        base = [json.loads(l) for l in f if l.strip()]
    _, bad, _ = variants()

    def segment(row, index, **changes):
        row = json.loads(json.dumps(row))
        m = row["metadata"]
        m["segment_index"] = index
        m["instance_id"] = f"{m['org_id']}-{m['session_id']}-seg{index}"
        m.update(changes)
        return json.dumps(row).encode()

    b, c, p = base
    shards = [
        [segment(b, 0), bad[0], segment(c, 0), segment(p, 0)],
        [segment(b, 1, split="eval"), segment(c, 1), b"", segment(b, 0), bad[3]],
        [segment(c, 2, instance_id="org_a-sess_p-seg0"), segment(b, 3), segment(p, 1)],
    ]
    paths = []
    for k, lines in enumerate(shards):
        data = b"\n".join(lines) + b"\n"
        path = root / (f"lint-{k}.jsonl.gz" if k == 2 else f"lint-{k}.jsonl")
        path.write_bytes(gzip.compress(data) if k == 2 else data)
        paths.append(str(path))
    return paths


def cli_lint(paths, *options):
    run = subprocess.run([cli(), "lint", "--schema", "nemo-gym-rollout", "--format", "jsonl", *options, *paths], capture_output=True)
    assert run.returncode in (0, 1), run.stderr
    reports = [r for r in (json.loads(l) for l in run.stdout.decode().splitlines() if l.startswith("{")) if "summary" not in r]
    return [(r["file"], r["line"], e["pointer"], e["message"]) for r in reports for e in r["errors"]]


@pytest.mark.parametrize("sessions_complete", [False, True])
@pytest.mark.parametrize("blocksize", [None, 300, 5000])
def test_lint_finds_what_the_cli_finds_across_shards(tmp_path, blocksize, sessions_complete):
    paths = lint_corpus(tmp_path)
    options = ["--sessions-complete"] if sessions_complete else []
    expected = cli_lint(paths, *options)
    result = sediment_rows.dask.lint(paths, "nemo-gym-rollout", sessions_complete=sessions_complete, blocksize=blocksize,
                                     scheduler="threads")
    assert isinstance(result, sediment_rows.dask.Linted)
    assert [(f.file, f.line, f.pointer, f.message) for f in result.findings] == expected
    assert (result.rows, result.invalid) == (11, 2)
    ids = {f.id for f in result.findings}
    # the rules across rows fired across files: a session's split, a duplicate segment, a shared instance_id
    assert {"rows.lint.session.split", "rows.lint.session.segment_index", "rows.lint.session.instance_id"} <= ids
    assert any(f.file == paths[1] and paths[0] + ":" in f.message for f in result.findings)
    assert any(f.id.startswith("rows.lint.") and not f.id.startswith("rows.lint.session") for f in result.findings)
    assert sessions_complete == any(f.id == "rows.lint.session.incomplete" for f in result.findings)


def test_lint_on_two_worker_processes(tmp_path):
    distributed = pytest.importorskip("distributed")
    paths = lint_corpus(tmp_path)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster):
        result = sediment_rows.dask.lint(paths, "nemo-gym-rollout", blocksize=200)
    assert [(f.file, f.line, f.pointer, f.message) for f in result.findings] == cli_lint(paths)
    with pytest.raises(ValueError):
        sediment_rows.dask.lint(paths, "nemo-gym-rollout", eval_fraction=0.9)


# ----- memory ------------------------------------------------------------------------------------


def _memory_mb(reset=False):
    """This process's (resident, peak resident) memory in MB; with `reset`, the peak restarts from the
    resident size first (Linux's /proc/PID/clear_refs), so that a peak is the peak of what follows."""
    if reset:
        with open("/proc/self/clear_refs", "w") as f:
            f.write("5")
    with open("/proc/self/status") as f:
        status = dict(line.split(":", 1) for line in f)
    return tuple(int(status[key].split()[0]) / 1024 for key in ("VmRSS", "VmHWM"))


def test_a_workers_peak_follows_its_block_size(tmp_path):
    """On a worker process, every job over a 40 MB shard in blocks of 1 MiB raises the worker's peak by
    a few blocks, not by the shard; the same shard read whole raises it by more than the shard (which
    shows that the peak is measured where the blocks are held)."""
    distributed = pytest.importorskip("distributed")
    try:
        _memory_mb(reset=True)
    except OSError as e:
        pytest.skip(f"this system cannot restart a process's peak memory: {e}")
    with open(os.path.join(EXAMPLES, "rows.jsonl"), "rb") as f:
        rows = [l.rstrip(b"\n") for l in f if l.strip()]

    def session(k):  # a row of a session of its own: the shard is clean for lint too
        row = json.loads(rows[k % len(rows)])
        m = row["metadata"]
        m["session_id"] = f"{m['session_id']}-{k}"
        m["instance_id"] = f"{m['org_id']}-{m['session_id']}-seg{m['segment_index']}"
        m["split"] = "train"  # as every session is with eval_fraction=0
        return json.dumps(row).encode()

    shard = tmp_path / "in" / "shard.jsonl"
    shard.parent.mkdir()
    shard.write_bytes(b"\n".join(session(k) for k in range(40_000_000 // (sum(len(r) + 1 for r in rows) // len(rows)))) + b"\n")
    size_mb = shard.stat().st_size / 1e6
    out = str(tmp_path / "out")
    jobs = sediment_rows.dask
    with distributed.LocalCluster(n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None,
                                  silence_logs=50) as cluster, distributed.Client(cluster) as client:
        def growth(run):
            """How far above its resident size the worker's memory peaks while `run` runs."""
            rss, _ = list(client.run(_memory_mb, True).values())[0]
            run()
            return list(client.run(_memory_mb).values())[0][1] - rss

        small = tmp_path / "small" / "rows.jsonl"
        small.parent.mkdir()
        small.write_bytes(b"\n".join(rows) + b"\n")
        jobs.format(str(small), "nemo-gym-rollout", out)  # imports the module on the worker
        assert jobs.lint(str(shard), eval_fraction=0.0).ok
        for run in (lambda: jobs.validate(str(shard), blocksize="1 MiB"),
                    lambda: jobs.lint(str(shard), eval_fraction=0.0, blocksize="1 MiB"),
                    lambda: jobs.format(str(shard), "nemo-gym-rollout", out, blocksize="1 MiB"),
                    lambda: jobs.upgrade(str(shard), "nemo-gym-rollout.v4", out, blocksize="1 MiB"),
                    lambda: jobs.convert(str(shard), "nemo-gym-rollout", "atif-v1.7", out, blocksize="1 MiB")):
            assert growth(run) < 16, size_mb
        assert growth(lambda: jobs.format(str(shard), "nemo-gym-rollout", out, blocksize=None)) > size_mb


def family_export(root):
    """An export folder of SFT and DPO rows in Sediment's layout, with four faults: a confidence below
    SFT's minimum, a pair twice, a fourth pair of one bucket, an eval prompt that a train row holds."""
    def sft(k, split="train", prompt=None):
        return {"prompt": [{"role": "user", "content": prompt or f"Task {k:02d}"}],
                "completion": [{"role": "assistant", "content": f"Done {k}"}], "tools": [],
                "metadata": {"org_id": "acme", "source_model": "m", "completion_id": f"call-{k:02d}", "recipe_id": "sft_curated",
                             "recipe_version": 1, "eligibility_source": "explicit_accept", "label_confidence": 0.9 if k != 2 else 0.5,
                             "ci_reliability": None, "provenance": {"policy_version": "5", "quarantine_revision": 0, "policy_digest": None},
                             "split": split, "repository_identity": None, "attribution_source": None,
                             "session_commit_observation_ids": [],
                             "schema_id": "https://sediment.so/schemas/training-rows/sft-sample/v3.json", "schema_version": 3}}

    def dpo(k, prompt):
        p = {"policy_version": "5", "quarantine_revision": 0, "policy_digest": None}
        return {"prompt": [{"role": "user", "content": prompt}], "chosen": [{"role": "assistant", "content": f"Good {k}"}],
                "rejected": [{"role": "assistant", "content": f"Bad {k}"}], "tools": [],
                "metadata": {"org_id": "acme", "source_model": "m", "chosen_completion_id": f"good-{k}", "rejected_completion_id": f"bad-{k}",
                             "recipe_id": "dpo_human", "recipe_version": 2, "chosen_label_source": "explicit_accept",
                             "rejected_label_source": "explicit_reject", "label_confidence": 0.7, "ci_reliability": None,
                             "confidence_margin": 0.3, "provenance": {"chosen": p, "rejected": p}, "split": "train",
                             "chosen_repository_identity": None, "rejected_repository_identity": None,
                             "chosen_attribution_source": None, "rejected_attribution_source": None,
                             "chosen_session_commit_observation_ids": [], "rejected_session_commit_observation_ids": [],
                             "schema_id": "https://sediment.so/schemas/training-rows/dpo-pair/v4.json", "schema_version": 4}}

    (root / "sft").mkdir(parents=True)
    (root / "sft" / "sft.train.jsonl").write_text("".join(json.dumps(sft(k)) + "\n" for k in range(5)))
    (root / "sft" / "sft.eval.jsonl").write_text(json.dumps(sft(9, "eval", prompt="Task 03")) + "\n")
    pairs = [dpo(k, "Same prompt") for k in range(4)] + [dpo(0, "Same prompt")]
    (root / "dpo.train.jsonl.gz").write_bytes(gzip.compress("".join(json.dumps(r) + "\n" for r in pairs).encode()))
    return str(root)


def test_lint_of_every_family_over_a_folder_is_the_clis(tmp_path):
    folder = family_export(tmp_path / "export")
    run = subprocess.run([cli(), "lint", "--schema", "any", "--format", "jsonl", folder], capture_output=True)
    assert run.returncode == 1, run.stderr
    reports = [r for r in (json.loads(l) for l in run.stdout.decode().splitlines()) if "summary" not in r]
    expected = [(r["file"], r["line"], e["id"], e["pointer"]) for r in reports for e in r["errors"]]
    assert sorted(e[2] for e in expected) == ["rows.lint.dpo.bucket", "rows.lint.duplicate", "rows.lint.prompt.train_and_eval",
                                              "rows.lint.sft.min_confidence"]
    for blocksize in (None, 400):
        result = sediment_rows.dask.lint(folder, "any", blocksize=blocksize, scheduler="threads")
        assert [(f.file, f.line, f.id, f.pointer) for f in result.findings] == expected
        assert (result.rows, result.invalid) == (11, 0)
    looser = sediment_rows.dask.lint(folder, "any", min_confidence=0.5, max_pairs_per_bucket=4, scheduler="sync")
    assert sorted(f.id for f in looser.findings) == ["rows.lint.duplicate", "rows.lint.prompt.train_and_eval"]
    # the Python Linter over the same rows in the same order
    linter = sediment_rows.Linter("sft-sample")
    found = [e.id for path in (folder + "/sft/sft.train.jsonl", folder + "/sft/sft.eval.jsonl")
             for line in open(path, "rb") for e in linter.add(line)]
    assert found == ["rows.lint.sft.min_confidence"] and [(n, e.id) for n, e in linter.finish()] == [(6, "rows.lint.prompt.train_and_eval")]
    # refused when called, not in a worker: a schema lint does not read, options out of range
    for bad in ({"schema": "ci-outcome.v3"}, {"schema": "any", "min_confidence": 1.5}, {"schema": "any", "max_pairs_per_bucket": 0}):
        with pytest.raises(ValueError):
            sediment_rows.dask.lint(folder, compute=False, **bad)
    with pytest.raises(ValueError):
        sediment_rows.Linter("ci-outcome.v3")
