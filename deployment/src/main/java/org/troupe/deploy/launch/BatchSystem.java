package org.troupe.deploy.launch;

import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.troupe.deploy.descriptor.ProcessSpec;

/** The commands of a batch system, as a launch uses them: submit a job, read its state, cancel it. */
enum BatchSystem {
    PBS("qsub") {
        @Override
        String jobScript(final ProcessSpec.Launcher spec, final String jvmScript, final String secretFile) {
            return Scripts.pbsJob(((ProcessSpec.Pbs) spec).nodes(), jvmScript, secretFile);
        }

        @Override
        String submit(final ProcessSpec.Launcher spec, final String name, final String log, final String job) {
            final ProcessSpec.Pbs b = (ProcessSpec.Pbs) spec;
            // One resource list: Slurm's qsub keeps only the last -l, and would book one node for any nodes=N.
            return "qsub -N " + Scripts.quote(name) + " -l "
                    + Scripts.quote(
                            "nodes=" + b.nodes() + ":ppn=" + b.processorsPerNode() + ",walltime=" + b.walltime())
                    + (b.queue().isEmpty() ? "" : " -q " + Scripts.quote(b.queue())) + " -j oe -o " + Scripts.quote(log)
                    + " " + Scripts.quote(job);
        }

        @Override
        String stateCommand(final String id) {
            return "qstat -f " + Scripts.quote(id);
        }

        @Override
        JobState state(final Host.Result r) {
            if (!r.ok()) {
                // 153: Torque's "Unknown Job Id", for a job that ended and was forgotten
                // Torque: 153, "Unknown Job Id"; PBS Pro: "Job has finished"
                return r.exitCode() == 153
                                || r.err().contains("Unknown Job")
                                || r.err().contains("has finished")
                        ? JobState.GONE
                        : null;
            }
            final Matcher m = JOB_STATE.matcher(r.out());
            return m.find() ? JobState.of(m.group(1)) : null;
        }

        @Override
        String cancel(final String id) {
            return "qdel " + Scripts.quote(id);
        }

        @Override
        String cancelByName(final String name) {
            // qselect where PBS has it; Slurm's PBS commands have none, and scancel instead
            return "qselect -N " + Scripts.quote(name) + " 2>/dev/null | xargs -r qdel; command -v scancel"
                    + " >/dev/null 2>&1 && scancel --name=" + Scripts.quote(name);
        }
    },

    SLURM("sbatch") {
        @Override
        String jobScript(final ProcessSpec.Launcher spec, final String jvmScript, final String secretFile) {
            return Scripts.slurmJob(jvmScript, secretFile);
        }

        @Override
        String submit(final ProcessSpec.Launcher spec, final String name, final String log, final String job) {
            final ProcessSpec.Slurm s = (ProcessSpec.Slurm) spec;
            return "sbatch --parsable --job-name=" + Scripts.quote(name) + " --nodes=" + s.nodes() + " --ntasks="
                    + s.tasks() + " --time=" + Scripts.quote(s.time())
                    + (s.partition().isEmpty() ? "" : " --partition=" + Scripts.quote(s.partition()))
                    + " --output=" + Scripts.quote(log) + " " + Scripts.quote(job);
        }

        @Override
        String stateCommand(final String id) {
            return "squeue -h -j " + Scripts.quote(id) + " -o %T";
        }

        @Override
        JobState state(final Host.Result r) {
            if (!r.ok()) {
                return r.err().contains("Invalid job id") ? JobState.GONE : null;
            }
            return JobState.of(r.out().strip());
        }

        @Override
        String cancel(final String id) {
            return "scancel " + Scripts.quote(id);
        }

        @Override
        String cancelByName(final String name) {
            return "scancel --name=" + Scripts.quote(name);
        }
    };

    private static final Pattern JOB_STATE = Pattern.compile("job_state = (\\S+)");

    private final String submitCommand;

    BatchSystem(final String submitCommand) {
        this.submitCommand = submitCommand;
    }

    /** The command that submits, for messages. */
    String submitCommand() {
        return submitCommand;
    }

    /** The job script: it runs {@code jvmScript} on the booked nodes, then deletes {@code secretFile}. */
    abstract String jobScript(ProcessSpec.Launcher spec, String jvmScript, String secretFile);

    /** The command that submits {@code job} as {@code name}, its output to {@code log}; it prints the job's id. */
    abstract String submit(ProcessSpec.Launcher spec, String name, String log, String job);

    abstract String stateCommand(String id);

    /** The job's state from {@link #stateCommand}'s result, or null when that says nothing (an error to retry). */
    abstract JobState state(Host.Result r);

    abstract String cancel(String id);

    /** Cancels the jobs called {@code name}: for a job whose submission was cut short before it said its id. */
    abstract String cancelByName(String name);

    /** A job's state as the batch system says it; a job no longer listed has ended. */
    record JobState(String text, boolean ended) {
        private static final Set<String> ENDED = Set.of(
                "C",
                "F",
                "COMPLETED",
                "FAILED",
                "CANCELLED",
                "TIMEOUT",
                "NODE_FAIL",
                "OUT_OF_MEMORY",
                "BOOT_FAIL",
                "DEADLINE");
        static final JobState GONE = new JobState("no longer listed", true);

        static JobState of(final String state) {
            return state.isEmpty() ? GONE : new JobState(state.toLowerCase(Locale.ROOT), ENDED.contains(state));
        }
    }
}
