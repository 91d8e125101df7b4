package org.troupe.deploy.launch;

import java.util.List;
import java.util.Map;

/** The shell text of launch steps: POSIX {@code sh}, every value quoted. */
final class Scripts {
    /** The name of the secret file in a deployment's directory. */
    static final String SECRET = "secret";

    private Scripts() {
    }

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

    /** What one JVM step runs on a host: its JVMs, each calling home with its nodes. */
    record JvmCommand(String java, String classpath, List<String> options, Map<String, String> env, int count,
                      int nodesPerJvm, String secretFile, String parentAddress, String namePrefix, String logDir,
                      String logName) {
    }

    /**
     * Starts the JVMs in the background and waits for them; on TERM it stops them. It ends when all have ended,
     * which before they registered means they failed: their logs say why.
     */
    static String jvms(final JvmCommand c) {
        final StringBuilder b = new StringBuilder("# Troupe node JVMs: ").append(c.count()).append(" x ")
            .append(c.nodesPerJvm()).append(" nodes\n");
        c.env().forEach((k, v) -> b.append("export ").append(k).append('=').append(quote(v)).append('\n'));
        b.append("mkdir -p ").append(quote(c.logDir())).append(" || exit 1\n")
            .append("pids=''\n")
            .append("trap 'kill $pids 2>/dev/null; wait; exit 143' TERM INT HUP\n")
            .append("host=$(hostname 2>/dev/null || echo host)\n")
            .append("i=0\n")
            .append("while [ $i -lt ").append(c.count()).append(" ]; do\n  ").append(quote(c.java()))
            .append(' ').append(quote("-Dtroupe.core.secretFile=" + c.secretFile()));
        for (final String o : c.options()) {
            b.append(' ').append(quote(o));
        }
        b.append(" -cp ").append(quote(c.classpath())).append(" org.troupe.core.NodeMain --parent ")
            .append(quote(c.parentAddress())).append(" --name-prefix ").append(quote(c.namePrefix()))
            .append(" --nodes ").append(c.nodesPerJvm()).append(" > ").append(quote(c.logDir() + "/" + c.logName()))
            .append("-\"$host-$$-$i\".log 2>&1 &\n")
            .append("  pids=\"$pids $!\"\n  i=$((i + 1))\ndone\nwait\n");
        return b.toString();
    }

    /** A PBS job running {@code jvmScript} once per booked node (under Slurm's PBS commands, through srun). */
    static String pbsJob(final int nodes, final String jvmScript) {
        return "#!/bin/sh\n"
            + "if [ -n \"$SLURM_JOB_ID\" ] && command -v srun >/dev/null 2>&1; then\n"
            + "  exec srun --nodes=" + nodes + " --ntasks=" + nodes + " --ntasks-per-node=1 sh " + quote(jvmScript)
            + "\nelif [ " + nodes + " -gt 1 ] && command -v pbsdsh >/dev/null 2>&1; then\n"
            + "  exec pbsdsh -u sh " + quote(jvmScript) + "\n"
            + "fi\n"
            + "exec sh " + quote(jvmScript) + "\n";
    }

    /** A Slurm batch script running {@code jvmScript} once per task. */
    static String slurmJob(final String jvmScript) {
        return "#!/bin/sh\nexec srun sh " + quote(jvmScript) + "\n";
    }
}
