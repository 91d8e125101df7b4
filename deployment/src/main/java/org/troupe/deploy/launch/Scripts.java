package org.troupe.deploy.launch;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;
import java.util.regex.Pattern;

/** The shell text of launch steps: POSIX {@code sh}, every value quoted. */
final class Scripts {
    /** How the names of secret files end: one per launch in a deployment's directory. */
    static final String SECRET_SUFFIX = ".secret";

    private Scripts() {}

    /** {@code s} as one single-quoted shell word. */
    static String quote(final String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    static String firstLine(final String script) {
        final String s = script.strip();
        final int nl = s.indexOf('\n');
        return nl < 0 ? s : s.substring(0, nl) + " ...";
    }

    static String lastLines(final String text, final int n) {
        final List<String> lines = text.lines().toList();
        return String.join(" | ", lines.subList(Math.max(0, lines.size() - n), lines.size()));
    }

    /**
     * The lines of a log's end that say what went wrong, at most {@code n}, in their order, joined by " | ": the
     * JVM's warnings that every JVM may print ({@code WARNING: ...} about {@code sun.misc.Unsafe}, native access,
     * and the like; {@code ... VM warning: ...}) are left out; errors, warnings of the program, exceptions and their
     * causes come first, then the last other lines, then stack frames.
     */
    static String tellingLines(final String text, final int n) {
        final List<String> lines = text.lines()
                .filter(l -> !l.isBlank() && !JVM_BOILERPLATE.matcher(l).find())
                .toList();
        final boolean[] chosen = new boolean[lines.size()];
        int left = n;
        for (final Predicate<String> kind : List.<Predicate<String>>of(
                l -> TELLING.matcher(l).find(), l -> !STACK_FRAME.matcher(l).find(), l -> true)) {
            for (int i = lines.size() - 1; i >= 0 && left > 0; i--) {
                if (!chosen[i] && kind.test(lines.get(i))) {
                    chosen[i] = true;
                    left--;
                }
            }
        }
        final List<String> told = new ArrayList<>();
        for (int i = 0; i < lines.size(); i++) {
            if (chosen[i]) {
                told.add(lines.get(i).strip());
            }
        }
        return String.join(" | ", told);
    }

    /** What the JDK prints by itself: warnings in its own format, the same in every JVM of a deployment. */
    private static final Pattern JVM_BOILERPLATE = Pattern.compile("^(WARNING: |\\S.* VM warning: )");
    /** A line that says what went wrong: a program's error or warning, an exception, its cause, a node's failure. */
    private static final Pattern TELLING =
            Pattern.compile("\\b(ERROR|WARN|FATAL|SEVERE)\\b|Exception|Error\\b|^Caused by:|^troupe node:");

    private static final Pattern STACK_FRAME = Pattern.compile("^\\s+(at |\\.\\.\\. [0-9]+ more)");

    /**
     * What one JVM step runs on a host: its JVMs, each calling home with its nodes.
     *
     * @param removeSecret whether the script deletes the secret file once its JVMs have ended (so that it goes even
     *     when nobody closes the deployment); not under a batch job, whose other tasks may still need it
     * @param relay whether the script also prints each line its JVMs print, as {@link #OUT} and {@link #ERR} lines
     */
    record JvmCommand(
            String java,
            String classpath,
            List<String> options,
            Map<String, String> env,
            int count,
            int nodesPerJvm,
            String secretFile,
            String parentAddress,
            String namePrefix,
            String logDir,
            String logName,
            boolean removeSecret,
            boolean relay,
            JvmNames names) {}

    /**
     * How the script names its JVMs: {@code PREFIX N}, N counting from {@code first} + 1 over the launch's JVMs, the
     * JVMs of a batch job's task {@code t} (its index among the job's tasks, {@code SLURM_PROCID} or
     * {@code PBS_VNODENUM}) after those of the tasks before it. The name is the JVM's everywhere: its output's tag, its
     * log file, its nodes' names ({@code NodeMain --jvm-name}) and so the failures and the console.
     */
    record JvmNames(String prefix, int first, boolean batchTasks) {}

    /**
     * How the JVM script prints a line one of its JVMs wrote on its standard output, when it relays them:
     * {@code troupe-out JVM TEXT}, JVM being the JVM's name ({@link JvmNames}), e.g. {@code workers-3}.
     */
    static final String OUT = "troupe-out ";

    /** As {@link #OUT}, for a line of a JVM's standard error. */
    static final String ERR = "troupe-err ";

    /**
     * The line the JVM script prints (and appends to its {@link #EXITS} file) when one of its JVMs ends: exit
     * code, the JVM's pid, then its log file.
     */
    static final String JVM_EXIT = "troupe-jvm-exit ";

    /** How the name of the file of a JVM script's {@link #JVM_EXIT} lines ends (a job's output may come late). */
    static final String EXITS = ".exits";

    /** How long, in tenths of a second, a stopped JVM script lets its JVMs end before it kills them. */
    static final int STOP_GRACE_TENTHS = 50;

    /**
     * Starts the JVMs in the background and waits for them; on TERM it stops them (killing those still there after
     * {@value #STOP_GRACE_TENTHS} tenths of a second) and waits for them. TERM is held
     * back while it forks, until each JVM's pid is written, so that no JVM escapes the stop. Each JVM's end is
     * printed as a {@link #JVM_EXIT} line, so that one JVM failing among several is reported at once, with its log.
     */
    static String jvms(final JvmCommand c) {
        return jvms(c, STOP_GRACE_TENTHS);
    }

    /** As {@link #jvms(JvmCommand)}, with another grace time: tests need not wait for the whole of it. */
    static String jvms(final JvmCommand c, final int graceTenths) {
        final String removeSecret = c.removeSecret() ? "rm -f " + quote(c.secretFile()) + "\n" : "";
        final StringBuilder b = new StringBuilder("# Troupe node JVMs: ")
                .append(c.count())
                .append(" x ")
                .append(c.nodesPerJvm())
                .append(" nodes\n");
        c.env()
                .forEach((k, v) -> b.append("export ")
                        .append(envName(k))
                        .append('=')
                        .append(quote(v))
                        .append('\n'));
        // exec: the JVM takes the place of the subshell that runs this in the background, so $! is its pid
        b.append("jvm() { exec ")
                .append(quote(c.java()))
                .append(' ')
                .append(quote("-Dtroupe.core.secretFile=" + c.secretFile()))
                // A node JVM out of memory ends: its callers then hear of it (their link drops) instead of waiting
                // on a body that died or a reply that was never encoded.
                .append(" '-XX:+ExitOnOutOfMemoryError'");
        for (final String o : c.options()) {
            b.append(' ').append(quote(o));
        }
        b.append(" -cp ")
                .append(quote(c.classpath()))
                .append(" org.troupe.core.NodeMain --parent ")
                .append(quote(c.parentAddress()))
                .append(" --name-prefix ")
                .append(quote(c.namePrefix()))
                .append(" --nodes ")
                .append(c.nodesPerJvm())
                .append(" --jvm-name \"$1\"; }\n");
        if (c.relay()) {
            // Line by line to the log (fd 4) and, tagged, to this script's output; one printf is one write, so the
            // lines of several JVMs do not mix.
            b.append("relay() { while IFS= read -r line || [ -n \"$line\" ]; do printf '%s\\n' \"$line\" >&4;")
                    .append(" printf '%s\\n' \"$1 $line\"; done; }\n");
        }
        // the index of this script's task among a batch job's (0 for a launch of one script)
        b.append(
                        c.names().batchTasks()
                                ? "task=${SLURM_PROCID:-${PBS_VNODENUM:-0}}\n"
                                        + "case $task in ''|*[!0-9]*) task=0;; esac\n"
                                : "task=0\n")
                .append("host=$(hostname 2>/dev/null || echo host)\n")
                .append("logs=")
                .append(quote(c.logDir()))
                .append("\nrun=")
                .append(quote(c.logDir() + "/" + c.logName()))
                .append("-\"$host-$$\"\n")
                .append(": > \"$run.pids\" || exit 1\n")
                .append("stopped=''\n")
                .append("trap 'stopped=1' TERM INT HUP\n")
                .append("i=0\n")
                .append("while [ $i -lt ")
                .append(c.count())
                .append(" ] && [ -z \"$stopped\" ]; do\n")
                .append("  name=")
                .append(quote(c.names().prefix()))
                .append("$((")
                .append(c.names().first())
                .append(" + task * ")
                .append(c.count())
                .append(" + i + 1))\n")
                .append("  log=\"$logs/$name.log\"\n")
                .append("  ( trap - TERM INT HUP\n");
        if (c.relay()) {
            // The JVM writes into two pipes, read by a relay each; without them (no mkfifo) straight to its log.
            b.append("    r1=; r2=\n")
                    .append("    if rm -f \"$log.out\" \"$log.err\" && mkfifo \"$log.out\" \"$log.err\"; then\n")
                    .append("      exec 4>> \"$log\"\n")
                    .append("      relay \"")
                    .append(OUT)
                    .append("$name\" < \"$log.out\" & r1=$!\n")
                    .append("      relay \"")
                    .append(ERR)
                    .append("$name\" < \"$log.err\" & r2=$!\n")
                    .append("      jvm \"$name\" > \"$log.out\" 2> \"$log.err\" &\n")
                    .append("    else\n")
                    .append("      jvm \"$name\" > \"$log\" 2>&1 &\n")
                    .append("    fi\n");
        } else {
            b.append("    jvm \"$name\" > \"$log\" 2>&1 &\n");
        }
        b.append("    pid=$!; echo $pid >> \"$run.pids\"; wait $pid; code=$?\n");
        if (c.relay()) {
            // The relays end with the JVM (its end of the pipes closes): their last lines are out before its exit.
            // A process the JVM left holding the pipes must not hold its exit back: 2 s at most.
            b.append("    t=0; while [ $t -lt 20 ] && { kill -0 $r1 || kill -0 $r2; } 2>/dev/null; do")
                    .append(" sleep 0.1; t=$((t + 1)); done\n")
                    .append("    [ -n \"$r1\" ] && kill $r1 $r2 2>/dev/null; wait; rm -f \"$log.out\" \"$log.err\"\n");
        }
        b.append("    echo \"")
                .append(JVM_EXIT)
                .append("$code $pid $log\" | tee -a \"$run")
                .append(EXITS)
                .append("\" ) &\n")
                .append("  i=$((i + 1))\n")
                .append("  while [ \"$(wc -l < \"$run.pids\")\" -lt $i ]; do sleep 0.05; done\n")
                .append("done\n")
                // TERM, then KILL what is still there after the grace time: a JVM stuck in a shutdown hook must not
                // keep
                // the deployment (or this script) waiting for ever.
                .append("stop() { pids=$(cat \"$run.pids\"); kill $pids 2>/dev/null; n=0\n")
                .append("  while [ $n -lt ")
                .append(graceTenths)
                .append(" ]; do alive=''\n")
                .append("    for p in $pids; do kill -0 $p 2>/dev/null && alive=1; done\n")
                .append("    [ -z \"$alive\" ] && break; sleep 0.1; n=$((n + 1)); done\n")
                .append("  kill -KILL $pids 2>/dev/null; wait; ")
                .append(removeSecret.replace('\n', ';'))
                .append(" exit 143; }\n")
                .append("trap stop TERM INT HUP\n")
                .append("[ -n \"$stopped\" ] && stop\n")
                .append("wait\n")
                .append(removeSecret);
        return b.toString();
    }

    /** A line removing the environment variables {@code names} (checked), or nothing if there are none. */
    static String unset(final List<String> names) {
        return names.isEmpty()
                ? ""
                : "unset "
                        + String.join(" ", names.stream().map(Scripts::envName).toList()) + "\n";
    }

    /** An environment variable's name, checked: it goes into the script as is. */
    private static String envName(final String name) {
        if (!name.matches("[A-Za-z_][A-Za-z0-9_]*")) {
            throw new LaunchException("'" + name + "' cannot be the name of an environment variable (letters, digits"
                    + " and _, not starting with a digit)");
        }
        return name;
    }

    /**
     * A PBS job running {@code jvmScript} once per booked node (under Slurm's PBS commands, through srun), then
     * deleting {@code secretFile}.
     */
    static String pbsJob(final int nodes, final String jvmScript, final String secretFile) {
        return "#!/bin/sh\n"
                + removeOnExit(secretFile)
                + "if [ -n \"$SLURM_JOB_ID\" ] && command -v srun >/dev/null 2>&1; then\n"
                + "  srun --nodes=" + nodes + " --ntasks=" + nodes + " --ntasks-per-node=1 sh " + quote(jvmScript)
                + "\n"
                + "elif [ " + nodes + " -eq 1 ]; then\n"
                + "  sh " + quote(jvmScript) + "\n"
                + "elif command -v pbsdsh >/dev/null 2>&1; then\n"
                + "  pbsdsh -u sh " + quote(jvmScript) + "\n"
                + "else\n"
                + "  echo 'troupe: neither srun nor pbsdsh is here to start the JVMs on " + nodes + " nodes' >&2\n"
                + "  exit 1\n"
                + "fi\n";
    }

    /** A Slurm batch script running {@code jvmScript} once per task, then deleting {@code secretFile}. */
    static String slurmJob(final String jvmScript, final String secretFile) {
        return "#!/bin/sh\n" + removeOnExit(secretFile) + "srun sh " + quote(jvmScript) + "\n";
    }

    /** Traps that delete {@code file} however the script ends, short of SIGKILL. */
    private static String removeOnExit(final String file) {
        return "trap " + quote("rm -f " + quote(file)) + " EXIT\n" + "trap "
                + quote("rm -f " + quote(file) + "; exit 143") + " TERM INT HUP\n";
    }
}
