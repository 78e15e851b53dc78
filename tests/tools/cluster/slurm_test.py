"""cluster_slurm_workflows: tools/cluster/wallgo-cluster on a real Slurm.

Starts a private single-node cluster (tools/cluster/local-slurm: Debian's
munge, slurmctld and slurmd, a configuration in a temporary folder, free
ports), then runs the workflows and checks what a user relies on:
  - match, 4 tasks, one requeued mid-run: every game exactly once;
  - a lopsided match (level 10 against level 1): the live SPRT cancels the
    remaining tasks early;
  - analysis, 4 tasks, one requeued mid-run: every query answered exactly
    once, in query order;
  - a cancelled analysis task: the merge fails naming what is missing, and
    `wallgo-cluster resubmit` completes the run;
  - a tiny training generation (self-play array, training, gate as
    dependent jobs) end to end.
Every daemon it started is stopped at the end, whatever happens. Needs root
(slurmd runs the jobs): otherwise it says so and exits 77, which ctest
reports as skipped.

Usage: slurm_test.py --bin BUILD/bin --source REPO
"""
import argparse
import collections
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

SKIP = 77


class Failure(Exception):
    pass


def check(condition, message):
    if not condition:
        raise Failure(message)


class Cluster:
    def __init__(self, source, bin_dir, folder):
        self.tools = os.path.join(source, "tools", "cluster")
        self.cli = os.path.join(self.tools, "wallgo-cluster")
        self.bin = bin_dir
        self.folder = folder
        self.env = dict(os.environ, SLURM_CONF=os.path.join(folder, "slurm", "slurm.conf"),
                        WALLGO_BIN=bin_dir, WALLGO_POLL="1",
                        WALLGO_TRAINER=os.path.join(source, "tools", "train"))

    def local_slurm(self, action):
        subprocess.run([os.path.join(self.tools, "local-slurm"), action,
                        os.path.join(self.folder, "slurm")], check=True,
                       stdout=subprocess.DEVNULL)

    def run(self, args, **kw):
        return subprocess.run(args, env=self.env, text=True, capture_output=True, **kw)

    def wallgo_cluster(self, *args, check_status=True):
        done = self.run([self.cli, *args])
        if check_status:
            check(done.returncode == 0,
                  f"wallgo-cluster {args[0]} failed ({done.returncode}):\n{done.stdout}\n{done.stderr}")
        return done

    def scontrol(self, *args):
        done = self.run(["scontrol", *args])
        check(done.returncode == 0, f"scontrol {args}: {done.stderr}")

    def task_state(self, job, task):
        return self.run(["squeue", "-h", "-j", f"{job}_{task}", "-o", "%T"]).stdout.strip()

    def requeue_when(self, folder, task, ready, what):
        """Requeues task `task` of the folder's job once `ready()` holds
        (and the task runs), then lifts the requeued task's start delay."""
        job = open(os.path.join(folder, "job")).read().strip()
        deadline = time.monotonic() + 60
        while not (ready() and self.task_state(job, task) == "RUNNING"):
            check(time.monotonic() < deadline, f"{what}: task {task} never got going")
            time.sleep(0.05)
        self.scontrol("requeue", f"{job}_{task}")
        # A requeued job waits (BeginTime) before it may start again.
        for _ in range(100):
            if self.task_state(job, task) == "PENDING":
                break
            time.sleep(0.05)
        subprocess.run([os.path.join(self.tools, "local-slurm"), "lift",
                        os.path.join(self.folder, "slurm"), f"{job}_{task}"],
                       env=self.env, check=True, stdout=subprocess.DEVNULL)
        return job

    def restarts(self, job, task):
        text = self.run(["scontrol", "show", "job", f"{job}_{task}"]).stdout
        return int(text.split("Restarts=")[1].split()[0])


def lines_of(path):
    with open(path, encoding="utf-8") as f:
        text = f.read()
    return [json.loads(line) for line in text.splitlines() if line.strip()]


def has_lines(path):
    return os.path.exists(path) and os.path.getsize(path) > 0


def engine(cluster, name, options):
    return f"name={name}:{cluster.bin}/wallgo --hash 16 {options}"


def match_with_requeue(c):
    folder = os.path.join(c.folder, "match")
    c.wallgo_cluster("match", "--dir", folder, "--tasks", "4", "--no-follow", "--",
                     "-e", engine(c, "a", "--visits 1200"), "-e", engine(c, "b", "--visits 400"),
                     "--games", "32", "--movetime", "30")
    job = c.requeue_when(folder, 2, lambda: has_lines(os.path.join(folder, "shard-2.jsonl")),
                         "match")
    done = c.wallgo_cluster("follow", folder)
    check(c.restarts(job, 2) == 1, "match: task 2 was not requeued")
    counts = collections.Counter()
    for task in range(1, 5):
        counts.update(r["game"] for r in lines_of(os.path.join(folder, f"shard-{task}.jsonl")))
    check(sorted(counts) == list(range(1, 33)), f"match: games {sorted(counts)}")
    check(set(counts.values()) == {1}, f"match: games played twice: {counts}")
    check([r["game"] for r in lines_of(os.path.join(folder, "match.jsonl"))] == list(range(1, 33)),
          "match: merged records out of order")
    check("32 games from 4 files" in done.stdout, done.stdout)
    print("match: 32 games, task 2 requeued mid-run, every game exactly once")


def lopsided_match(c):
    folder = os.path.join(c.folder, "lopsided")
    games = 400
    done = c.wallgo_cluster("match", "--dir", folder, "--tasks", "4", "--sprt", "0,50,0.05,0.05",
                            "--poll", "1", "--",
                            "-e", engine(c, "strong", "--level 10 --visits 2000"),
                            "-e", engine(c, "weak", "--level 1"), "--games", str(games),
                            "--movetime", "30")
    check("SPRT decided" in done.stdout, "lopsided: the SPRT did not stop the match:\n" + done.stdout)
    check("H1 accepted" in done.stdout, done.stdout)
    played = len(lines_of(os.path.join(folder, "match.jsonl")))
    check(played < games // 2, f"lopsided: {played} of {games} games played before the stop")
    job = open(os.path.join(folder, "job")).read().strip()
    check(c.run(["squeue", "-h", "-j", job]).stdout.strip() == "", "lopsided: tasks left")
    print(f"lopsided: the live SPRT stopped the match after {played} of {games} games")


def analysis_with_requeue(c):
    folder = os.path.join(c.folder, "analysis")
    os.makedirs(folder)
    queries = os.path.join(c.folder, "queries.jsonl")
    placements = ["c3", "e3", "c5", "e5"]  # free in the start position
    expected = []
    with open(queries, "w", encoding="utf-8") as f:
        for i in range(40):
            moves = placements[:1 + i % 4]
            f.write(json.dumps({"id": f"q{i}", "moves": moves, "maxVisits": 1500,
                                "analyzeTurns": [0, len(moves)]}) + "\n")
            expected += [(f"q{i}", 0), (f"q{i}", len(moves))]
    c.wallgo_cluster("analysis", "--dir", folder, "--tasks", "4", "--queries", queries,
                     "--no-follow", "--", "--hash", "16")
    job = c.requeue_when(folder, 1, lambda: has_lines(os.path.join(folder, "shard-1.jsonl")),
                         "analysis")
    c.wallgo_cluster("follow", folder)
    check(c.restarts(job, 1) == 1, "analysis: task 1 was not requeued")
    answers = [(a["id"], a["turnNumber"]) for a in lines_of(os.path.join(folder, "answers.jsonl"))]
    check(answers == expected, f"analysis: answers {answers[:6]}... not each query once in order")
    print("analysis: 40 queries (80 turns), task 1 requeued mid-run, each answered once, in order")


def failed_task_resubmitted(c):
    """A task cancelled (not requeued) leaves its shard short: the merge
    fails saying what is missing, and resubmit completes every query once."""
    folder = os.path.join(c.folder, "resubmit")
    queries = os.path.join(c.folder, "queries.jsonl")  # analysis_with_requeue's
    # Submitted held, so that task 3 is surely cancelled before it runs.
    c.wallgo_cluster("analysis", "--dir", folder, "--tasks", "4", "--queries", queries,
                     "--no-follow", "--sbatch", "--hold", "--", "--hash", "16")
    job = open(os.path.join(folder, "job")).read().strip()
    check(c.run(["scancel", f"{job}_3"]).returncode == 0, "resubmit: scancel failed")
    c.scontrol("release", job)
    failed = c.wallgo_cluster("follow", folder, check_status=False)
    check(failed.returncode == 1 and "has no answer" in failed.stderr
          and "resubmit" in failed.stderr, f"resubmit: the short merge passed:\n{failed.stderr}")
    c.wallgo_cluster("resubmit", folder)
    answers = [(a["id"], a["turnNumber"]) for a in lines_of(os.path.join(folder, "answers.jsonl"))]
    check(len(answers) == 80 and len(set(answers)) == 80, "resubmit: answers missing or doubled")
    print("resubmit: a cancelled task's shard found short by the merge, then completed once")


def training_generation(c, source):
    folder = os.path.join(c.folder, "train")
    weights = os.path.join(source, "search", "net", "weights", "wallgo-net-3.wgn")
    done = c.wallgo_cluster("train", "--dir", folder, "--tasks", "2", "--weights", weights,
                            "--tiny")
    check("generation done" in done.stdout, done.stdout)
    for name in ["selfplay-1.wgd", "selfplay-2.wgd", "candidate.wgn", "gate.jsonl", "verdict"]:
        check(os.path.exists(os.path.join(folder, name)), f"train: no {name}")
    verdict = open(os.path.join(folder, "verdict")).read().strip()
    print(f"train: self-play (2 tasks), training and gate as dependent jobs: {verdict}")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--bin", required=True)
    ap.add_argument("--source", required=True)
    args = ap.parse_args()
    if os.geteuid() != 0:
        print("SKIP: needs root to start slurmd (it runs jobs as their users)")
        return SKIP
    folder = tempfile.mkdtemp(prefix="wallgo-slurm-")
    os.chmod(folder, 0o755)
    cluster = Cluster(os.path.abspath(args.source), os.path.abspath(args.bin), folder)

    def interrupted(signum, frame):
        raise SystemExit(f"stopped by signal {signum}")

    signal.signal(signal.SIGTERM, interrupted)
    start = time.monotonic()
    try:
        cluster.local_slurm("start")
        match_with_requeue(cluster)
        lopsided_match(cluster)
        analysis_with_requeue(cluster)
        failed_task_resubmitted(cluster)
        training_generation(cluster, os.path.abspath(args.source))
    except Failure as e:
        print("FAILED:", e)
        for log in sorted(glob.glob(os.path.join(folder, "*", "logs", "*.out"))):
            print(f"--- {os.path.relpath(log, folder)}")
            print("".join(open(log).readlines()[-5:]))
        for log in ["slurmctld.log", "slurmd.log"]:
            path = os.path.join(folder, "slurm", "log", log)
            if os.path.exists(path):
                print(f"--- last lines of {log}")
                print("".join(open(path).readlines()[-15:]))
        return 1
    finally:
        cluster.local_slurm("stop")
        shutil.rmtree(folder, ignore_errors=True)
    print(f"all workflows passed in {time.monotonic() - start:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
