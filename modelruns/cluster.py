"""`python -m modelruns sweep SWEEP.toml --executor slurm`: the sweep's runs as one Slurm job array, via submitit.

Each array task is one run (`SweepJob`) and does what the sweep's own loop does for it (`sweep.advance`): train, or
resume from the run's checkpoint, then predict the test. Every task asks for what the file's [slurm] table says
(time, GPUs, partition, CPUs, memory …). A run's state is its folder (checkpoint.pt after every epoch), so:

- **Requeued.** Slurm signals a task (SIGUSR2) 90 s before its time limit, and when it preempts it on clusters
  configured to (docs/models.md). submitit then calls the task's checkpoint(), which, being `Checkpointable`'s,
  resubmits the same task, and requeues it (after a time limit at most `max_timeouts` times). The requeued task
  resumes from the last finished epoch.
- **Submitted again.** The same command submits only the runs that are not done and predicted; interrupted ones
  resume from their checkpoints, finished ones are skipped. Once every run is, it writes results.csv and import.sh
  (`sweep.collect`) and submits nothing.

Two tasks must never work on one run: submit again only once the previous array has left the queue.
"""

from __future__ import annotations

from pathlib import Path

import submitit
from submitit.core.utils import FailedJobError

from .sweep import Run, SweepFile, advance, check_done, check_inputs, collect, plan, progress, read_sweep, state
from .train import RunError


class SweepJob(submitit.helpers.Checkpointable):
    """One array task: one run of the sweep as submitted (the parsed file travels with the task)."""

    def __init__(self, sweep: SweepFile, run: Run, path: Path):
        self.sweep, self.run, self.path = sweep, run, path

    def __call__(self) -> str:
        advance(
            self.sweep,
            self.run,
            ["python", "-m", "modelruns", "sweep", str(self.path), "--executor", "slurm"],
            self.echo,
        )
        return self.run.name

    def echo(self, line: str) -> None:
        print(line, flush=True)  # the task's log (OUT/slurm/ARRAY_TASK_0_log.out), read while it runs


def submit(path: Path, echo=print, cluster: str = "slurm") -> list[submitit.Job]:
    """Submit the runs that are not done and predicted as one job array and return its jobs; with none left, write
    results.csv and import.sh. `cluster="local"` runs the tasks as processes on this machine (submitit's
    LocalExecutor, with the same checkpoint and requeue), which is how the tests run an array without Slurm."""
    resolved = path.resolve()  # what the tasks get: they may start in another folder
    sweep = read_sweep(resolved)
    if sweep.slurm is None:
        raise RunError(
            f"{path}: --executor slurm needs a [slurm] table with at least time_min (minutes per run); "
            "docs/models.md has an example"
        )
    runs = plan(sweep)
    check_inputs(runs)
    for run in runs:
        what, manifest = state(run)
        if what == "done":
            check_done(sweep, run, manifest)
    for line in progress(runs):
        echo(line)
    todo = [run for run in runs if state(run)[0] != "done" or not run.predictions.is_file()]
    if not todo:
        collect(sweep, runs, echo)
        return []
    executor = _executor(sweep, cluster)
    try:
        with executor.batch():
            jobs = [executor.submit(SweepJob(sweep, run, resolved)) for run in todo]
    except FailedJobError as exc:  # sbatch's own message: an unknown partition, account, a time over the limit …
        raise RunError(f"{path}: sbatch refused the array ([slurm] table): {exc}") from None
    echo(f"submitted {len(jobs)} run(s) to {cluster} (logs in {executor.folder}):")
    for job, run in zip(jobs, todo, strict=True):
        echo(f"  {job.job_id}  {run.name}")
    echo(
        f"watch: python -m modelruns sweep {path} --status"
        + (f"; squeue -j {jobs[0].job_id.split('_')[0]}" if cluster == "slurm" else "")
        + "\nonce they have ended, the same command again: it submits what did not finish (resuming from its "
        "checkpoint), or writes results.csv when every run is done"
    )
    return jobs


def _executor(sweep: SweepFile, cluster: str) -> submitit.AutoExecutor:
    s = sweep.slurm
    try:
        executor = submitit.AutoExecutor(
            folder=sweep.out / "slurm", cluster=cluster, slurm_max_num_timeout=s.max_timeouts
        )
    except RuntimeError as exc:  # no srun on this machine
        raise RunError(f"--executor slurm: {exc} Submit from the cluster's login node.") from None
    # None is "not set" to submitit: the cluster's defaults apply.
    executor.update_parameters(
        name=f"sweep-{sweep.out.name}",
        timeout_min=s.time_min,
        gpus_per_node=s.gpus_per_node or None,
        cpus_per_task=s.cpus_per_task,
        mem_gb=s.mem_gb,
        slurm_partition=s.partition,
        slurm_account=s.account,
        slurm_qos=s.qos,
        slurm_constraint=s.constraint,
        slurm_array_parallelism=s.array_parallelism,
        slurm_setup=s.setup or None,
        slurm_additional_parameters=s.sbatch or None,
    )
    return executor
