package org.troupe.apps.nozzle;

import java.util.Arrays;

/**
 * bin/nozzle's check of Nozzle's own options before mpjrun starts any rank: {@code CheckOptions NP ARGS...} prints
 * what is wrong in one line and exits 2, else exits 0 at once. Inside the ranks a bad option would fail the job,
 * with mpjrun's lines about the failed ranks after the message.
 */
public final class CheckOptions {
    private CheckOptions() {}

    public static void main(final String[] args) {
        final String problem = Nozzle.problem(Arrays.copyOfRange(args, 1, args.length), Integer.parseInt(args[0]));
        if (problem != null) {
            System.err.println("nozzle: " + problem + " (bin/nozzle --help lists the options)");
            System.exit(2);
        }
    }
}
