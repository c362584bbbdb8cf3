"""`python -m modelruns sweep SWEEP.toml --executor slurm`: the [slurm] table checked key by key and turned into the
array's sbatch requests (a stand-in sbatch here, no Slurm), and an array run by submitit's local executor, which
checkpoints and requeues as on Slurm: interrupted two ways, it resumes, and its table equals a sequential sweep's."""

from __future__ import annotations

import os
import signal

import pytest

import modelruns.cluster
from modelruns.__main__ import main
from modelruns.cluster import SweepJob, submit
from modelruns.sweep import run_sweep
from modelruns.train import RunError
from tests.test_sweep import GRID, sets

SLURM = (
    GRID.replace('["IID", "OOD"]', '["IID"]')
    + """
[slurm]
partition = "gpu"
time_min = 30
gpus_per_node = 2
cpus_per_task = 4
mem_gb = 16
setup = ["module load cuda/12.4"]
sbatch = { mail-type = "END" }
"""
)


def stand_in_slurm(tmp_path, monkeypatch, sbatch: str):
    """First on PATH: an srun (submitit looks for one) and an sbatch whose shell body is `sbatch` ($1: the script)."""
    folder = tmp_path / "bin"
    folder.mkdir(exist_ok=True)
    for name, body in (("srun", "exit 0"), ("sbatch", sbatch)):
        (folder / name).write_text(f"#!/bin/sh\n{body}\n")
        (folder / name).chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}:{os.environ['PATH']}")


def test_the_slurm_table_is_checked_and_its_requests_reach_sbatch(tmp_path, monkeypatch, capsys):
    sets(tmp_path, regimes=("IID",))
    path = tmp_path / "sweep.toml"
    for text, message in [
        (SLURM.replace("partition =", "partiton ="), "key slurm.partiton: Extra inputs are not permitted"),
        (SLURM.replace("time_min = 30\n", ""), "key slurm.time_min: Field required"),
        (SLURM.replace("mem_gb = 16", 'mem_gb = "lots"'), "key slurm.mem_gb: Input should be a valid number"),
        (
            SLURM.replace("gpus_per_node = 2", "gpus_per_node = 0").replace('device = "cpu"', 'device = "cuda"'),
            "slurm.gpus_per_node: 0, but device is cuda",
        ),
        (GRID.replace('["IID", "OOD"]', '["IID"]'), "--executor slurm needs a [slurm] table with at least time_min"),
    ]:
        path.write_text(text)
        assert main(["sweep", str(path), "--executor", "slurm"]) == 2
        err = capsys.readouterr().err
        assert f"error: {path}: " in err and message in err

    path.write_text(SLURM)
    with monkeypatch.context() as m, pytest.raises(RunError, match='--executor slurm: Could not detect "srun"'):
        m.setenv("PATH", str(tmp_path / "nothing"))  # not a Slurm machine
        submit(path, echo=lambda *_: None)
    stand_in_slurm(tmp_path, monkeypatch, 'echo "sbatch: error: invalid partition specified: gpu" >&2; exit 1')
    with pytest.raises(RunError, match="sbatch refused the array .* invalid partition specified: gpu"):
        submit(path, echo=lambda *_: None)

    stand_in_slurm(tmp_path, monkeypatch, f'cp "$1" {tmp_path}/array.sh; echo "Submitted batch job 4242"')
    assert main(["sweep", str(path), "--executor", "slurm"]) == 0
    out = capsys.readouterr().out
    assert "  4242_0  small-IID-16-s0\n  4242_1  small-IID-16-s1\n" in out and "squeue -j 4242" in out
    script = (tmp_path / "array.sh").read_text().splitlines()
    for line in [
        "#SBATCH --array=0-1%2",
        "#SBATCH --partition=gpu",
        "#SBATCH --time=30",
        "#SBATCH --gpus-per-node=2",
        "#SBATCH --cpus-per-task=4",
        "#SBATCH --mem=16GB",
        "#SBATCH --mail-type=END",
        "#SBATCH --job-name=sweep-grid",
        "module load cuda/12.4",
    ]:
        assert line in script
    assert not (tmp_path / "grid" / "runs").exists()  # nothing trains on the machine that submits


def test_an_interrupted_array_resumes_and_its_table_equals_a_sequential_sweeps(tmp_path, monkeypatch):
    sets(tmp_path, regimes=("IID",))
    grid = SLURM.replace("gpus_per_node = 2", "gpus_per_node = 0").replace("epochs = 2", "epochs = 3")
    sequential = tmp_path / "sequential.toml"
    sequential.write_text(grid.replace('out = "grid"', 'out = "sequential"'))
    run_sweep(sequential, echo=lambda *_: None)
    path = tmp_path / "sweep.toml"
    path.write_text(grid)
    runs = tmp_path / "grid" / "runs"

    def interrupt(line):
        if "small-IID-16-s1: epoch 1/3" in line:
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):  # a sweep stopped on its second run: submitted, that one resumes
        run_sweep(path, echo=interrupt)

    class Preempted(SweepJob):
        """Preempted after its run's second epoch: the task gets SIGUSR2, as from Slurm, and submitit calls its
        checkpoint() and requeues it. Defined here, so that cloudpickle sends the class to the task by value."""

        def echo(self, line):
            super().echo(line)
            if ": epoch 2/3:" in line:
                os.kill(os.getpid(), signal.SIGUSR2)

    monkeypatch.setattr(modelruns.cluster, "SweepJob", Preempted)
    lines = []
    (job,) = submit(path, echo=lines.append, cluster="local")  # the finished run is not submitted
    assert [line.split()[:2] for line in lines[:2]] == [["small-IID-16-s0", "done"], ["small-IID-16-s1", "running"]]
    assert job.result() == "small-IID-16-s1"
    assert "this job is preempted" in job.stderr()
    log = (runs / "small-IID-16-s1" / "train.log").read_text()
    assert log.count("epoch 1/3:") == log.count("epoch 2/3:") == log.count("epoch 3/3:") == 1
    assert "resumed after epoch 1" in log and "resumed after epoch 2" in log and "# complete" in log

    lines = []
    assert submit(path, echo=lines.append, cluster="local") == []  # every run done: the table, nothing submitted
    assert lines[-1].startswith(f"results: {tmp_path}/grid/results.csv")
    assert (tmp_path / "grid" / "results.csv").read_bytes() == (tmp_path / "sequential" / "results.csv").read_bytes()
