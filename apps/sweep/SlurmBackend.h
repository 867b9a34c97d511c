#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "apps/sweep/SweepRunner.h"
#include "apps/sweep/SweepSpec.h"

namespace npusim {

// `npusim sweep --backend slurm` (docs/sweeps.md, "On a Slurm cluster"): the points not
// yet complete go to one `sbatch --array` job of ceil(points / points_per_task) tasks.
// Each task starts on its own run of points and then claims any left unclaimed (an
// atomic mkdir in the shared sweep directory), running them through the same
// SweepWorkspace as the local backend; collecting then writes results.csv.
struct SlurmOptions : SlurmSettings {
  bool wait = false;  // follow the job, then collect
};

struct SlurmSubmission {
  SweepCounts counts;        // points, skipped (complete), failed (bad configs); run = points submitted
  std::string job_id;        // empty when nothing was left to run
  std::size_t tasks = 0;
};

// InputError while a Slurm job submitted into this sweep directory is still queued or
// running: its tasks write the points without the directory's lock, so neither a new
// submission nor a local sweep may run beside them.
class SweepWorkspace;
void refuse_while_slurm_job_active(const SweepWorkspace& ws);

// Refuses (InputError) while an earlier job of this sweep directory is still queued
// or running, or when sbatch refuses the job.
SlurmSubmission submit_slurm_sweep(const SweepSpec& spec, const SweepOptions& options, const SlurmOptions& slurm);

// Polls squeue until the job has left the queue, drawing the progress line.
void wait_for_slurm_job(const SweepSpec& spec, const SweepOptions& options, const std::string& job_id);

// Marks the submitted points that no task finished as failed (naming the job and task)
// and writes results.csv. Refuses while the job is still queued or running.
SweepCounts collect_slurm_sweep(const SweepSpec& spec, const SweepOptions& options);

// Inside array task `task`: runs its points; returns how many failed.
std::size_t run_slurm_task(const SweepSpec& spec, const std::string& out, std::size_t task);

}  // namespace npusim
